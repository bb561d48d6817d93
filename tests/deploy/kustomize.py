"""A small Kustomize renderer for the subset deploy/kubernetes uses, so that ``make test``
renders the overlay with no ``kubectl`` or ``kustomize`` binary.

Supported, with Kustomize's semantics for these cases:

- ``resources``: files (multi-document YAML) and directories holding a ``kustomization.yaml``
  (rendered first, recursively);
- ``patches`` whose ``patch`` is an inline JSON 6902 list (``add``/``replace``/``remove`` on
  JSON-pointer paths) and whose ``target`` selects by ``kind`` and/or ``name``;
- ``images``: ``newName``/``newTag`` for every container whose image name matches ``name``;
- ``namespace``: set on every namespaced object (not on ``Namespace`` itself).

Anything else in a kustomization (strategic-merge patches, generators, ``commonLabels``,
name prefixes...) raises ``UnsupportedError`` instead of being silently ignored.
``tests/deploy/test_kubernetes.py`` also compares the result with ``kubectl kustomize`` when a
``kubectl`` is on the PATH.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

Object = dict[str, Any]
SUPPORTED = frozenset({"apiVersion", "kind", "resources", "patches", "images", "namespace"})
CLUSTER_SCOPED = frozenset({"Namespace", "ClusterRole", "ClusterRoleBinding", "PriorityClass"})


class UnsupportedError(ValueError):
    """The kustomization uses a feature this renderer does not implement."""


def render(directory: Path) -> list[Object]:
    """The objects ``kustomize build directory`` would output (in resource order)."""
    spec = yaml.safe_load((directory / "kustomization.yaml").read_text())
    unknown = set(spec) - SUPPORTED
    if unknown:
        raise UnsupportedError(f"{directory}: unsupported kustomization fields {sorted(unknown)}")
    objects: list[Object] = []
    for resource in spec.get("resources", []):
        path = directory / resource
        if path.is_dir():
            objects.extend(render(path))
        else:
            objects.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    for patch in spec.get("patches", []):
        apply_patch(objects, patch)
    for image in spec.get("images", []):
        for obj in objects:
            set_image(obj, image)
    if "namespace" in spec:
        for obj in objects:
            if obj["kind"] not in CLUSTER_SCOPED:
                obj["metadata"]["namespace"] = spec["namespace"]
    return objects


def _matches(obj: Object, target: dict[str, str]) -> bool:
    unknown = set(target) - {"kind", "name"}
    if unknown:
        raise UnsupportedError(f"patch target fields {sorted(unknown)}")
    return all(
        (obj["kind"] if key == "kind" else obj["metadata"]["name"]) == value
        for key, value in target.items()
    )


def apply_patch(objects: list[Object], patch: dict[str, Any]) -> None:
    if set(patch) != {"target", "patch"}:
        raise UnsupportedError(f"only inline JSON 6902 patches with a target: {sorted(patch)}")
    operations = yaml.safe_load(patch["patch"])
    if not isinstance(operations, list):
        raise UnsupportedError("strategic-merge patches are not supported (use JSON 6902)")
    targets = [obj for obj in objects if _matches(obj, patch["target"])]
    if not targets:
        raise ValueError(f"patch target {patch['target']} matches nothing")
    for obj in targets:
        for operation in operations:
            json6902(obj, operation)


def _pointer(path: str) -> list[str]:
    if not path.startswith("/"):
        raise ValueError(f"not a JSON pointer: {path!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def json6902(obj: Object, operation: dict[str, Any]) -> None:
    """Apply one ``add``/``replace``/``remove`` operation in place (RFC 6902)."""
    op, parts = operation["op"], _pointer(operation["path"])
    parent: Any = obj
    for part in parts[:-1]:
        parent = parent[int(part)] if isinstance(parent, list) else parent[part]
    last = parts[-1]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "add":
            parent.insert(index, copy.deepcopy(operation["value"]))
        elif op == "replace":
            parent[index] = copy.deepcopy(operation["value"])
        elif op == "remove":
            del parent[index]
        else:
            raise UnsupportedError(f"JSON 6902 op {op!r}")
        return
    if op in ("replace", "remove") and last not in parent:
        raise ValueError(f"{operation['path']} does not exist")
    if op in ("add", "replace"):
        parent[last] = copy.deepcopy(operation["value"])
    elif op == "remove":
        del parent[last]
    else:
        raise UnsupportedError(f"JSON 6902 op {op!r}")


def _containers(obj: Object) -> list[Object]:
    pod = obj.get("spec", {}).get("template", {}).get("spec", {})
    return [*pod.get("initContainers", []), *pod.get("containers", [])]


def _image_name(image: str) -> str:
    name = image.split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    return name[:colon] if colon > slash else name


def set_image(obj: Object, image: dict[str, str]) -> None:
    unknown = set(image) - {"name", "newName", "newTag"}
    if unknown:
        raise UnsupportedError(f"images fields {sorted(unknown)}")
    for container in _containers(obj):
        if _image_name(container["image"]) != image["name"]:
            continue
        name = image.get("newName", image["name"])
        tag = image.get("newTag")
        current = container["image"]
        old_tag = current[len(_image_name(current)) + 1 :] if ":" in current else ""
        container["image"] = f"{name}:{tag or old_tag}" if (tag or old_tag) else name
