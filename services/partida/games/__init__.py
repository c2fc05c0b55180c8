"""The bundled games; importing this package registers each of them."""

from partida.games import montanas  # noqa: F401
