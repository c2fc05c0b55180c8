"""The Alembic migrations on SQLite (the PostgreSQL twin is in tests/integration)."""

import sqlalchemy as sa
from alembic import command

from partida.persistence import db
from tests.unit.persistence.support import schema_differences


def test_the_migrated_schema_is_exactly_the_models(engine):
    assert schema_differences(engine) == []


def test_migrate_takes_a_url_and_can_run_again(tmp_path):
    url = f"sqlite:///{tmp_path / 'again.db'}"
    db.migrate(url)
    db.migrate(url)
    engine = db.make_engine(url)
    assert schema_differences(engine) == []
    engine.dispose()


def test_downgrade_removes_everything_and_upgrade_restores_it(engine):
    with engine.begin() as conn:
        command.downgrade(db.alembic_config(conn), "base")
    assert set(sa.inspect(engine).get_table_names()) <= {"alembic_version"}
    db.migrate(engine)
    assert schema_differences(engine) == []


def test_the_migrations_live_in_the_package():
    # migrate() needs no alembic.ini: the scripts are found beside the code.
    assert (db.MIGRATIONS / "env.py").is_file()
    assert (db.MIGRATIONS / "versions" / "0001_initial.py").is_file()
    assert (db.MIGRATIONS / "versions" / "__init__.py").is_file()  # shipped as a package


def test_matches_recorded_before_rules_editions_are_of_the_first(engine):
    """0006: every match recorded before it was created under its game's first edition of
    the rules (no game had raised its revision yet), and its audit relies on that."""
    with engine.begin() as conn:
        command.downgrade(db.alembic_config(conn), "0005")
        conn.execute(sa.text(
            "INSERT INTO matches (match_id, game_id, scenario_id, options_json, seats_json, "
            "status, dice_commitment, decision_timeout_seconds, spectator_delay_actions, "
            "created_at) VALUES ('m1', 'montanas', 'standard', '{}', '[]', 'active', :c, 0, "
            "0, '2026-12-01 00:00:00')"), {"c": bytes(32)})
    db.migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT rules_revision FROM matches")).scalar_one() == 1
