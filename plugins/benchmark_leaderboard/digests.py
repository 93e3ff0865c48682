"""What an output's bytes depend on, as a digest: the same inputs give the same digest in any
process and any build, and a digest that cannot be worked out soundly is None (that output is
always made again).

``stable`` encodes a value as bytes that depend on the value alone: data by their types and
contents, a function by its module, name and code, a Pelican page object by its source, metadata
and text; a value it cannot encode that way (an object whose text names a memory address, say) has
no encoding, and what depends on it has no digest. ``plugin_version`` is the digest of the
plugin's own source and of the versions of the libraries that render (Pelican, Jinja, MarkupSafe). ``template_inputs`` is the digest of a template's source with every template it extends,
includes or imports, and the names it looks up in the context (jinja2.meta, as included.py reads
them): what a page's digest adds beside its own data."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import os
import sys
import sysconfig
import types
from functools import lru_cache
from importlib import metadata
from typing import Any, Iterable

from jinja2 import Environment, meta
from markupsafe import Markup

# A digest's size in bytes: 128 bits, written as 32 hex digits in the render's marker.
DIGEST_SIZE = 16
# The settings that say where and how a build runs, never what a page holds: a rebuild in place and a
# build into a new folder of the same inputs, with one worker or several, by ``pelican content`` or
# ``invoke build``, differ in these alone. With them, where the inputs are read from: what the
# digests hold of an input is its content (every report's bytes, the manifest's rows, the previous
# leaderboard's bytes, the templates' and plugins' source, the Markdown pages as read), so that the
# same archive copied elsewhere renders the same site with the same marker.
WHERE_WRITTEN = frozenset(("OUTPUT_PATH", "LEADERBOARD_PREVIOUS_RENDER", "LEADERBOARD_KEEP_UNCHANGED",
                           "LEADERBOARD_WORKERS", "LEADERBOARD_KEEP_READS", "DEBUG", "CACHE_PATH", "CACHE_CONTENT",
                           "LOAD_CONTENT_CACHE", "CHECK_MODIFIED_METHOD", "CONTENT_CACHING_LAYER", "GZIP_CACHE",
                           "DELETE_OUTPUT_DIRECTORY", "OUTPUT_RETENTION", "LOG_FILTER",
                           "PATH", "LEADERBOARD_REPORTS_DIR", "LEADERBOARD_MANIFEST", "LEADERBOARD_PREVIOUS_LEADERBOARD",
                           "THEME", "THEME_TEMPLATES_OVERRIDES", "PLUGIN_PATHS"))


def digest(*parts: bytes) -> bytes:
    """The digest of ``parts`` (each length-prefixed, so that no two lists of parts collide)."""
    hasher = hashlib.blake2b(digest_size=DIGEST_SIZE)
    for part in parts:
        hasher.update(len(part).to_bytes(8, "little"))
        hasher.update(part)
    return hasher.digest()


class Unstable(Exception):
    """A value ``stable`` cannot encode by what it is."""


def stable(value: Any) -> bytes:
    """``value`` as bytes that depend only on what it is; raises ``Unstable``."""
    out: list[bytes] = []
    _encode(value, out, 0)
    return b"".join(out)


def stable_or_none(value: Any) -> bytes | None:
    try:
        return stable(value)
    except (Unstable, RecursionError):
        return None


def json_text(value: Any) -> bytes:
    """A value as a JSON parser makes it (dicts, lists, strings, numbers, booleans and None: the
    manifest's rows) as bytes that tell it from any other such value: its ``repr``, which writes
    each of those types apart (``1``, ``1.0``, ``True`` and ``'1'`` differ) and every string quoted
    and escaped, at a fraction of ``stable``'s cost for many small values. The same dict with its
    keys in another order gives other bytes: a digest that misses a keep, never one that keeps a
    file it must not."""
    return repr(value).encode("utf-8", "surrogatepass")


_MOST_DEPTH = 64
_SCALARS = (str, int, float, bool, type(None), bytes, complex)


def _encode(value: Any, out: list[bytes], depth: int) -> None:
    if depth > _MOST_DEPTH:
        raise Unstable("too deep")
    kind = type(value)
    if kind in _SCALARS or kind is Markup:
        text = repr(value).encode("utf-8", "surrogatepass")
        out += (kind.__qualname__.encode(), b":", len(text).to_bytes(8, "little"), text)
        return
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta, datetime.tzinfo)):
        text = repr(value).encode("utf-8")
        if b" at 0x" in text:
            raise Unstable(kind.__qualname__)
        out += (b"D:", len(text).to_bytes(8, "little"), text)
        return
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        out += (b"[", kind.__qualname__.encode(), len(value).to_bytes(8, "little"))
        for item in value:
            _encode(item, out, depth + 1)
        out.append(b"]")
        return
    if isinstance(value, tuple):  # a named tuple: its type and its fields
        out += (b"N", _name_of(kind), len(value).to_bytes(8, "little"))
        for item in value:
            _encode(item, out, depth + 1)
        out.append(b"]")
        return
    if isinstance(value, dict):
        # Each item's key and value encodings (each self-delimiting), in the order of their bytes.
        items = sorted(stable(key) + stable(item) for key, item in value.items())
        out += (b"{", len(items).to_bytes(8, "little"), *items, b"}")
        return
    if isinstance(value, (set, frozenset)):
        items = sorted(stable(item) for item in value)
        out += (b"S", len(items).to_bytes(8, "little"), *items, b"]")
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out += (b"C", _name_of(kind))
        for field in dataclasses.fields(value):
            _encode(getattr(value, field.name), out, depth + 1)
        out.append(b"]")
        return
    if isinstance(value, (types.FunctionType, types.MethodType)):
        out += (b"F", function_digest(value))
        return
    if isinstance(value, (type, types.BuiltinFunctionType, types.ModuleType)):
        out += (b"T", _name_of(value))
        return
    if hasattr(value, "relative_source_path") and hasattr(value, "metadata") and hasattr(value, "_content"):
        # A Pelican page object: where it was read from, its metadata and its text (as made).
        out += (b"P", _name_of(kind))
        _encode((value.relative_source_path, value.metadata, value._content,
                 getattr(value, "save_as", None), getattr(value, "url", None)), out, depth + 1)
        return
    if callable(value) and hasattr(value, "__wrapped__") and not isinstance(value, type):
        # A function wrapped by a decorator (functools.lru_cache, functools.wraps): the function itself.
        out.append(b"w")
        _encode(value.__wrapped__, out, depth + 1)
        return
    if isinstance(value, functools.partial):
        out.append(b"p")
        _encode((value.func, value.args, value.keywords), out, depth + 1)
        return
    text = repr(value).encode("utf-8", "surrogatepass")
    if b" at 0x" not in text and b" object at " not in text:
        out += (b"R", _name_of(kind), len(text).to_bytes(8, "little"), text)
        return
    if hasattr(value, "__dict__") and not isinstance(value, type):
        # An object of a Python class (a filter such as Pelican's DateFormatter): its class, by its
        # name and its methods' code. Its attributes are made from the settings (which every digest
        # holds) or from the process's surroundings (DateFormatter's locale), which are no input.
        out += (b"O", class_digest(kind))
        return
    raise Unstable(kind.__qualname__)


def class_digest(kind: type) -> bytes:
    """A class by its name and the source of the modules it and its bases are defined in."""
    parts = [_name_of(kind)]
    for base in kind.__mro__:
        module = sys.modules.get(base.__module__)
        path = getattr(module, "__file__", None)
        if base is not object and path:
            parts.append(source_digest(path))
    return digest(*parts)


def _name_of(thing: Any) -> bytes:
    return f"{getattr(thing, '__module__', '')}.{getattr(thing, '__qualname__', getattr(thing, '__name__', ''))}".encode()


def function_digest(function: Any) -> bytes:
    """A function by its module and name, the source file its code was read from (the same file
    gives the same digest with every supported Python), its defaults and the values it closes over."""
    function = getattr(function, "__func__", function)
    code = getattr(function, "__code__", None)
    parts = [_name_of(function)]
    if code is not None:
        parts.append(source_digest(code.co_filename))
        try:
            parts.append(stable(function.__defaults__))
            parts.append(stable(tuple(cell.cell_contents for cell in function.__closure__ or ())))
        except (Unstable, ValueError):
            raise Unstable(f"closure of {function!r}") from None
    return digest(*parts)


# Python's own library: its modules are named, not read (their source differs from one supported
# Python to the next, which write the same bytes).
_STANDARD_LIBRARY = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


@lru_cache(maxsize=1024)
def source_digest(path: str) -> bytes:
    """The digest of a source file's bytes (of its name within Python's own library, for one of
    that); raises ``Unstable`` for code read from no file."""
    real = os.path.realpath(path)
    if real.startswith(_STANDARD_LIBRARY) and "site-packages" not in real[len(_STANDARD_LIBRARY):]:
        return digest(b"python:", real[len(_STANDARD_LIBRARY):].encode())
    try:
        with open(path, "rb") as file:
            return digest(file.read())
    except OSError:
        raise Unstable(f"code from {path}") from None


@lru_cache(maxsize=1)
def plugin_version() -> bytes:
    """The plugin's own source (every Python file of its package and the JSON it ships), and the
    versions of the libraries that read, render and write (not Python's: every supported version
    writes the same bytes)."""
    root = os.path.dirname(os.path.abspath(__file__))
    parts = []
    for name in ("pelican", "jinja2", "markupsafe", "orjson", "fastjsonschema"):
        try:
            parts.append(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            parts.append(f"{name}=none".encode())
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(entry for entry in folders if entry != "__pycache__")
        for name in sorted(names):
            if name.endswith((".py", ".json")):
                path = os.path.join(folder, name)
                with open(path, "rb") as file:
                    parts += (os.path.relpath(path, root).encode(), file.read())
    return digest(*parts)


def plugins_digest(settings: dict[str, Any]) -> bytes:
    """The source of every plugin the site loads (``PLUGINS``, each module's file or its package's
    Python files): a plugin changed changes what every page may be given."""
    parts = []
    for plugin in settings.get("PLUGINS") or ():
        name = plugin if isinstance(plugin, str) else getattr(plugin, "__name__", "")
        module = sys.modules.get(name) or sys.modules.get(f"pelican.plugins.{name}")
        parts.append(name.encode())
        path = getattr(module, "__file__", None)
        if not path:
            continue
        files = [path]
        if os.path.basename(path) == "__init__.py":
            files = sorted(os.path.join(folder, entry) for folder, folders, names in os.walk(os.path.dirname(path))
                           for entry in names if entry.endswith(".py") and "__pycache__" not in folder)
        for file in files:
            with open(file, "rb") as handle:
                parts += (os.path.relpath(file, os.path.dirname(path)).encode(), handle.read())
    return digest(*parts)


def settings_digest(settings: dict[str, Any]) -> bytes | None:
    """Every setting but those that say where the build writes (``WHERE_WRITTEN``); None when one
    cannot be encoded by what it is."""
    try:
        return digest(*(key.encode() + b"=" + stable(value) for key, value in sorted(settings.items())
                        if key not in WHERE_WRITTEN))
    except (Unstable, RecursionError):
        return None


def template_tree(environment: Environment, name: str,
                  parsed: dict[str, tuple[str, frozenset[str], tuple[str | None, ...]]] | None = None
                  ) -> tuple[bytes, frozenset[str] | None]:
    """The digest of template ``name``'s source with every template it extends, includes or
    imports, and the names they look up in the context (None when a template is named by a
    variable, so that which one is rendered cannot be known from the source: then the digest
    covers every template the environment can load, and every name). ``parsed`` keeps each
    template's source, names and references for the next call of the same build."""
    parsed = {} if parsed is None else parsed
    sources: dict[str, str] = {}
    names: set[str] | None = set()
    waiting = [name]
    while waiting:
        current = waiting.pop()
        if current in sources:
            continue
        if current not in parsed:
            source = environment.loader.get_source(environment, current)[0]
            tree = environment.parse(source)
            parsed[current] = (source, frozenset(meta.find_undeclared_variables(tree)),
                               tuple(meta.find_referenced_templates(tree)))
        source, read, referenced = parsed[current]
        sources[current] = source
        if names is not None:
            names |= read
        for other in referenced:
            if other is None:
                names = None
                waiting += [entry for entry in environment.list_templates() if entry not in sources]
            else:
                waiting.append(other)
    found = digest(*(part for key in sorted(sources) for part in (key.encode(), sources[key].encode("utf-8"))))
    return found, (frozenset(names) if names is not None else None)


def context_digest(context: dict[str, Any], environment: Environment, names: Iterable[str] | None,
                   covered: dict[str, bytes], skipped: frozenset[str], callables: bytes | None = None) -> bytes | None:
    """The digest of the values a template looks up (``names``; every one of the context's when
    None): a name in ``covered`` by the digest given for it there (the board's objects), a name in
    ``skipped`` not at all (what each page is given itself, which its own digest holds), any other by
    its value in the context or among the environment's globals, with the filters and tests every
    template may call. None when a value cannot be encoded by what it is."""
    if names is None:
        names = set(context) | set(environment.globals)
    parts = []
    try:
        for name in sorted(set(names) - skipped):
            if name in covered:
                parts.append(name.encode() + b"#" + covered[name])
            elif name in context:
                parts.append(name.encode() + b"=" + stable(context[name]))
            elif name in environment.globals:
                parts.append(name.encode() + b"~" + stable(environment.globals[name]))
            else:
                parts.append(name.encode() + b"?")
        parts.append(callables if callables is not None else filters_digest(environment))
    except (Unstable, RecursionError):
        return None
    return digest(*parts)


def filters_digest(environment: Environment) -> bytes:
    """The filters and tests every template of ``environment`` may call; raises ``Unstable``."""
    return digest(stable(dict(environment.filters)), stable(dict(environment.tests)))
