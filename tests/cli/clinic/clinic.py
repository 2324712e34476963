"""A small clinic desk (한빛의원 예약 창구) whose booking writes to the JSON file $CLINIC_DB:
the write tool of the rerun/replay tests (from the tester's /tmp/try26-files/clinic)."""

from __future__ import annotations

import json
import os
from pathlib import Path


def _db() -> Path:
    return Path(os.environ["CLINIC_DB"])


def _load() -> list[dict]:
    return json.loads(_db().read_text(encoding="utf-8")) if _db().exists() else []


def list_openings(department: str, day: str) -> dict:
    """진료과와 날짜로 비어 있는 예약 시간을 조회한다.

    Args:
        department: 진료과. 예: 내과
        day: 진료 날짜 (YYYY-MM-DD). 예: 2026-12-03
    """
    taken = {a["time"] for a in _load() if (a["department"], a["day"]) == (department, day)}
    return {"free": [t for t in ("09:00", "14:00") if t not in taken]}


def book_appointment(patient_name: str, department: str, day: str, time: str) -> dict:
    """환자 이름으로 진료 예약을 잡는다.

    Args:
        patient_name: 환자 이름 (한글 그대로). 예: 김하늘
        department: 진료과. 예: 피부과
        day: 진료 날짜 (YYYY-MM-DD). 예: 2026-12-03
        time: 시각 HH:MM. 예: 09:30
    """
    appts = _load()
    appts.append({"patient": patient_name, "department": department, "day": day, "time": time})
    _db().write_text(json.dumps(appts, ensure_ascii=False), encoding="utf-8")
    return {"booked": len(appts)}


__tools__ = [list_openings, book_appointment]
