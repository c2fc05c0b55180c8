"""The bundled games; importing this package registers each of them."""

from partida.games import bandas, batallitas, dynamit_joe, montanas, pasaran  # noqa: F401
