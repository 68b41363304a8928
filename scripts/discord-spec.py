#!/usr/bin/env python3
"""Reduce Discord's published OpenAPI document to what the fake checks.

Usage: scripts/discord-spec.py OPENAPI_JSON [OUT] --commit SHA [--date YYYY-MM-DD]

OPENAPI_JSON is `specs/openapi.json` of the discord/discord-api-spec
repository (MIT licence). OUT defaults to tests/data/discord/openapi.json.
Kept: every route and method (so a call outside the API is refused), each
request body's media types, `required` flag and schema, and the component
schemas those bodies reach through `$ref`. Dropped: descriptions, titles,
examples, summaries, responses, parameters and every other annotation.
The header (`x-source`) names the repository, the commit and the licence.
"""
import argparse
import json
import pathlib
import sys

# JSON Schema keywords that only annotate: dropping them changes no verdict.
ANNOTATIONS = {
    "description", "title", "examples", "example", "summary", "deprecated",
    "externalDocs", "readOnly", "writeOnly", "$comment", "default",
}
METHODS = ("get", "put", "post", "patch", "delete")
MEDIA = ("application/json", "multipart/form-data")
LICENCE = "MIT, Copyright 2023 Discord (tests/data/discord/openapi.LICENSE)"


def strip(schema):
    """A schema without annotations. Keys of `properties` are field names,
    never keywords: a field called `description` stays."""
    if isinstance(schema, list):
        return [strip(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ANNOTATIONS or key.startswith("x-"):
            continue
        if key in ("properties", "patternProperties", "$defs", "definitions"):
            out[key] = {name: strip(sub) for name, sub in value.items()}
        else:
            out[key] = strip(value)
    return out


def refs(node, found):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            found.add(ref.rsplit("/", 1)[1])
        for value in node.values():
            refs(value, found)
    elif isinstance(node, list):
        for value in node:
            refs(value, found)


def reduce(document):
    paths = {}
    for template, item in sorted(document["paths"].items()):
        kept = {}
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            body = operation.get("requestBody")
            reduced = {}
            if body:
                content = {m: {"schema": strip(body["content"][m]["schema"])} for m in MEDIA if m in body.get("content", {})}
                if content:
                    reduced["requestBody"] = {"required": bool(body.get("required", False)), "content": content}
            kept[method] = reduced
        if kept:
            paths[template] = kept
    schemas = document.get("components", {}).get("schemas", {})
    wanted, queue = set(), set()
    refs(paths, queue)
    while queue:
        name = queue.pop()
        if name in wanted or name not in schemas:
            continue
        wanted.add(name)
        refs(schemas[name], queue)
    components = {"schemas": {name: strip(schemas[name]) for name in sorted(wanted)}}
    return paths, components


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("out", nargs="?", default="tests/data/discord/openapi.json")
    parser.add_argument("--commit", required=True, help="discord-api-spec commit the document comes from")
    parser.add_argument("--date", default="", help="that commit's date")
    args = parser.parse_args()
    document = json.loads(pathlib.Path(args.source).read_text())
    paths, components = reduce(document)
    reduced = {
        "openapi": document["openapi"],
        "info": {"title": document["info"]["title"], "version": document["info"]["version"],
                 "license": document["info"].get("license", {"name": "MIT"})},
        "x-source": {
            "repository": "https://github.com/discord/discord-api-spec",
            "path": "specs/openapi.json",
            "commit": args.commit,
            "date": args.date,
            "licence": LICENCE,
            "reduced-by": "scripts/discord-spec.py: routes, methods, request body schemas and their limits; "
                          "descriptions, examples and responses removed",
        },
        "paths": paths,
        "components": components,
    }
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(reduced, indent=1, sort_keys=False) + "\n")
    routes = sum(len(v) for v in paths.values())
    print(f"{out}: {routes} routes, {len(components['schemas'])} schemas, {out.stat().st_size} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
