"""JSON Schemas of the corpus files, generated from the models (published in corpus/schema/)."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from replay.corpus import models as M

#: schema file name -> the model of one such corpus file
FILES: dict[str, type[BaseModel]] = {
    "text.schema.json": M.Text,
    "game.schema.json": M.GameInfo,
    "clauses.schema.json": M.ClausesFile,
    "clause-ids.schema.json": M.ClauseLockFile,
    "ambiguities.schema.json": M.AmbiguitiesFile,
    "glossary.schema.json": M.GlossaryFile,
    "layout.schema.json": M.LayoutSpec,
    "witness.schema.json": M.WitnessFile,
    "changes.schema.json": M.ChangesFile,
}


def schema_text(model: type[BaseModel]) -> str:
    return json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def write_schemas(out: Path) -> list[Path]:
    from replay.fsio import write_text

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, model in FILES.items():
        path = out / name
        write_text(path, schema_text(model), update=True)  # regenerating them is the command's purpose
        paths.append(path)
    return paths
