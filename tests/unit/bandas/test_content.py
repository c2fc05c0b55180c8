"""Points lists, ready-made gangs and gang sheets (Rulebook, Tipos de tropas, Animales y robots,
Armamento, Blindajes, Habilidades, Vehículos, Tabla de blindajes)."""

import pytest

from partida.games.bandas.content import GangError, check_gang, gang_cost, load

PTS = load().points


def sheet(*models, vehicles=(), limit=500):
    return {"id": "g", "name": "G", "points_limit": limit, "models": list(models),
            "vehicles": list(vehicles)}


def m(grade="ganger", **kw):
    return {"id": kw.pop("id", "a"), "name": "A", "grade": grade, **kw}


def errors_of(data):
    with pytest.raises(GangError) as e:
        check_gang(PTS, data)
    return e.value.errors


def test_costs_add_grade_weapons_armour_skills_and_vehicles():
    """Tipos de tropas: a veteran is 30; Armamento: light automatic 2, sabre 3; Blindajes:
    composite 3; Habilidades: drugs 20; Vehículos: truck 50, medium armour 15, heavy auto 10."""
    gang = check_gang(PTS, sheet(
        m("veteran", weapons=["light_auto", "sabre"], armour="composite", skills=["drugs"]),
        vehicles=[{"id": "t", "name": "T", "kind": "truck", "armour": "medium",
                   "weapon": "heavy_auto"}]))
    assert gang_cost(PTS, gang) == 30 + 2 + 3 + 3 + 20 + 50 + 15 + 10


def test_every_ready_made_gang_is_within_its_limit():
    c = load()
    for g in c.gangs.values():
        assert gang_cost(c.points, g) <= g.points_limit


def test_over_the_points_limit_is_refused_with_the_total():
    errs = errors_of(sheet(m("veteran"), m("veteran", id="b"), limit=50))
    assert errs == ["the gang costs 60 points, over its limit of 50"]


def test_skill_count_by_grade():
    """Tipos de tropas: veterans 2 skills, gangers 1, henchmen none."""
    assert any("may take 0 skill(s)" in e
               for e in errors_of(sheet(m("henchman", skills=["drugs"]))))
    assert any("may take 1 skill(s)" in e
               for e in errors_of(sheet(m("ganger", skills=["drugs", "amulet"]))))
    check_gang(PTS, sheet(m("veteran", skills=["drugs", "amulet"])))


def test_animals_take_mutations_and_robots_mechanical_skills():
    """Animales y robots: animals choose among mutations, robots among mechanical skills."""
    assert any("may not take the mystic skill" in e
               for e in errors_of(sheet(m("animal", skills=["drugs"]))))
    assert any("may not take the mutation skill" in e
               for e in errors_of(sheet(m("robot", skills=["winged"]))))
    check_gang(PTS, sheet(m("animal", skills=["winged"]),
                          m("robot", id="b", skills=["bionic_arm"])))


def test_weapon_slots_animals_two_melee_tentacle_one_more_pistol_pair():
    """Armamento: one ranged and one melee weapon, animals two melee; Pistolas: two pistols;
    Tentáculo: one more weapon of either kind."""
    check_gang(PTS, sheet(m("animal", weapons=["sabre", "spear"])))
    check_gang(PTS, sheet(m("animal", weapons=["pistol", "sabre"])))   # RULES.md: animals
    assert any("carries 1 ranged" in e                                  # may, not must
               for e in errors_of(sheet(m("animal", weapons=["pistol", "sabre", "spear"]))))
    assert any("carries 1 ranged" in e
               for e in errors_of(sheet(m(weapons=["sabre", "spear"]))))
    check_gang(PTS, sheet(m(weapons=["sabre", "spear"], skills=["tentacle"])))
    check_gang(PTS, sheet(m(weapons=["pistol", "pistol", "sabre"])))
    assert any("at most two pistols" in e
               for e in errors_of(sheet(m(weapons=["pistol", "pistol", "pistol"]))))


def test_shotgun_ammunition_is_chosen_on_the_sheet():
    """Escopetas: piercing or scatter is written on the gang sheet before the game."""
    assert any("needs its ammunition" in e for e in errors_of(sheet(m(weapons=["shotgun"]))))
    check_gang(PTS, sheet(m(weapons=["shotgun"], shotgun_ammo="scatter")))


def test_heavy_automatic_only_on_trucks_and_motorbikes_only_light_armour():
    """Armas automáticas: heavy ones only on vehicles; Motos: only light armour."""
    assert any("only mounted" in e for e in errors_of(sheet(m(weapons=["heavy_auto"]))))
    errs = errors_of(sheet(m(), vehicles=[
        {"id": "b", "name": "B", "kind": "motorbike", "armour": "heavy"},
        {"id": "c", "name": "C", "kind": "buggy", "weapon": "heavy_auto"}]))
    assert len(errs) == 2 and "light armour" in errs[0] and "cannot mount" in errs[1]


def test_every_illegal_choice_is_named_at_once():
    errs = errors_of(sheet(m("wizard"), m("ganger", id="a", weapons=["ray"], armour="mithril")))
    assert len(errs) == 4   # duplicate id, unknown grade, unknown weapon, unknown armour
    assert errs[0] == "id 'a' is used twice"


def test_malformed_sheets_are_refused_as_gang_errors():
    errs = errors_of({"id": "g", "name": "G", "points_limit": "many", "models": []})
    assert any(e.startswith("points_limit") for e in errs)
