"""Structured JSON logs: one object per line, with the call's request id when there is one."""

from __future__ import annotations

import json
import logging
import time

from partida.platform.calls import request_id_var


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": round(record.created, 3), "level": record.levelname.lower(),
               "logger": record.name, "msg": record.getMessage()}
        rid = request_id_var.get()
        if rid:
            out["request_id"] = rid
        for key in ("match_id", "seat", "service"):
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
