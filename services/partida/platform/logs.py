"""Structured JSON logs: one object per line, with the request id, match id and seat of the
call or bot turn being served when there are some."""

from __future__ import annotations

import json
import logging
import time

from partida.platform.calls import match_id_var, request_id_var, seat_var


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 3), "level": record.levelname.lower(),
               "logger": record.name, "msg": record.getMessage()}
        context = {"request_id": request_id_var.get(), "match_id": match_id_var.get(),
                   "seat": seat_var.get()}
        out.update((k, v) for k, v in context.items() if v not in ("", None))
        for key in ("match_id", "seat", "service"):  # given explicitly: extra={...}
            if hasattr(record, key):
                out[key] = getattr(record, key)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def configure(level: str = "INFO") -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.Formatter.converter = time.gmtime
    logging.getLogger("alembic").setLevel("WARNING")
