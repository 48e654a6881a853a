"""The OpenAPI 3.1 document of the HTTP API (served at /openapi.json and /docs, offline)."""

from __future__ import annotations

from index import ASKED_MODES

from ..present.web import VIEWS
from ..serving import api

_STR = {"type": "string"}
_OPT_STR = {"type": ["string", "null"]}
SEARCHING = {
    "top_k": {"type": "integer", "minimum": 1, "maximum": api.MOST_TOP_K, "default": 5},
    "product": _OPT_STR,
    "release": _OPT_STR,
    "kind": _OPT_STR,
    "mode": {"enum": list(ASKED_MODES), "default": "auto"},
    "max_chars": {"type": "integer", "minimum": api.MIN_MAX_CHARS, "maximum": api.MOST_MAX_CHARS,
                  "default": api.DEFAULT_MAX_CHARS},
    "detail": {"enum": list(api.DETAILS), "default": "cards"},
}
TURN = {"type": "object", "description": "the \"turn\" the previous answer returned, sent back as it came",
        "properties": {name: _STR for name in ("question", "asked_as")} | {
            "releases": {"type": "array", "items": _STR}, "products": {"type": "array", "items": _STR},
            "range": {"type": "object"}}}
CONVERSING = {
    "previous": {"oneOf": [{"type": "null"}, TURN], "description": "null for a conversation's first question; "
                 "with it the question is read as a follow-up and the answer adds \"turn\" and \"kept\""},
    "view": {"enum": list(VIEWS), "default": "record",
             "description": "page: the record with the parts the web page shows (cite, range_text, digest.view)"},
}
ERRORS = {
    "401": {"description": "missing or wrong bearer token"},
    "413": {"description": "request body over the size limit"},
    "422": {"description": "a bad argument or question: {\"error\": message}"},
    "503": {"description": "the index is loading or failed to open"},
}


def _post(summary: str, required: dict, optional: dict, returns: str, media: str = "application/json") -> dict:
    schema = {"type": "object", "required": list(required), "properties": {**required, **optional},
              "additionalProperties": False}
    return {"post": {"summary": summary,
                     "requestBody": {"required": True, "content": {media: {"schema": schema}}},
                     "responses": {"200": {"description": returns}, **ERRORS}}}


def openapi() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "relnotes-qa", "version": "1",
                 "description": "Answers from software release notes, with citations (file:lines, URL)."},
        "components": {"securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
        "security": [{"bearer": []}],
        "paths": {
            "/v1/health": {"get": {"summary": "Whether the index is loaded, and what it holds", "security": [],
                                   "responses": {"200": {"description": "ok"}, "503": {"description": "loading"}}}},
            "/v1/ask": _post("Answer a question (the record of relnotes ask --json)", {"question": _STR},
                             {**SEARCHING, **CONVERSING}, "the answer record"),
            "/v1/search": _post("Ranked, cited passages for a query", {"query": _STR}, SEARCHING, "passages"),
            "/v1/releases": {"get": {"summary": "Products with their releases, newest first",
                                     "parameters": [{"name": "product", "in": "query", "schema": _STR},
                                                    {"name": "max_chars", "in": "query", "schema": SEARCHING["max_chars"]}],
                                     "responses": {"200": {"description": "products"}, **ERRORS}}},
            "/v1/changes": _post("The upgrade digest after since up to until",
                                 {"since": _STR, "until": _STR},
                                 {"product": _OPT_STR, "kinds": {"type": ["array", "null"], "items": _STR},
                                  "topic": _OPT_STR, "max_chars": SEARCHING["max_chars"], "detail": SEARCHING["detail"]},
                                 "the answer record with its digest"),
            "/v1/deps": {"get": {"summary": "The project's dependencies, what needs attention first (relnotes deps "
                                            "--json as 'dependencies'; a server started with --project)",
                                 "parameters": [{"name": "name", "in": "query", "schema": _STR,
                                                 "description": "only this dependency (repeatable)"},
                                                {"name": "max_chars", "in": "query", "schema": SEARCHING["max_chars"]}],
                                 "responses": {"200": {"description": "{project, dependencies: [...]}"}, **ERRORS}}},
            "/v1/batch": {"post": {"summary": "Many questions: JSONL in ({\"id\", \"question\", ...} a line), JSONL out",
                                   "requestBody": {"required": True, "content": {"application/x-ndjson": {"schema": _STR}}},
                                   "responses": {"200": {"description": "one record (or {\"id\", \"error\"}) a line"},
                                                 **ERRORS}}},
            "/v1/show": {"get": {"summary": "The lines a citation points at (as relnotes show) and their section",
                                 "parameters": [{"name": "c", "in": "query", "required": True, "schema": _STR,
                                                 "description": "PATH:START-END (field) as an answer printed it, or a chunk id"},
                                                {"name": "id", "in": "query", "schema": _STR,
                                                 "description": "the chunk id, to pick a record of a file of several"},
                                                {"name": "view", "in": "query", "schema": CONVERSING["view"]}],
                                 "responses": {"200": {"description": "{citation, shown, more, sections}"}, **ERRORS}}},
            "/mcp": {"post": {"summary": "The MCP server over streamable HTTP (the tools of relnotes mcp)",
                              "responses": {"200": {"description": "JSON-RPC"}}}},
        },
    }
