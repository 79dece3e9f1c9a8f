"""``Record``: ``typing.NamedTuple``'s class syntax without importing ``typing`` at run time.

``import typing`` costs a sixth of the classic command-line job, so the records on that
path derive from :data:`Record`: to a type checker it *is* ``typing.NamedTuple``; at run
time it makes the same class with ``collections.namedtuple`` (fields and defaults from
the annotations and values) and adds the class body's methods and docstring.

>>> class Point(Record):
...     '''A point.'''
...     x: int
...     y: int = 0
...     def norm1(self) -> int:
...         return abs(self.x) + abs(self.y)
>>> p = Point(3)
>>> p, p.norm1(), p._replace(y=-4).norm1(), p == (3, 0), Point.__doc__
(Point(x=3, y=0), 3, 7, True, 'A point.')
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import NamedTuple as Record
else:
    from collections import namedtuple

    _NOT_COPIED = frozenset({"__module__", "__qualname__", "__dict__"})

    class _RecordType(type):
        def __new__(mcls, name, bases, namespace):  # noqa: N804 - a metaclass
            if not bases:  # Record itself
                return super().__new__(mcls, name, bases, namespace)
            if "__classcell__" in namespace:
                raise TypeError(f"{name}: a Record's methods cannot use super() or __class__")
            if "__annotations__" not in namespace and "__annotate__" in namespace:
                raise TypeError(
                    f"{name}: a Record's module needs `from __future__ import annotations`"
                )
            fields = tuple(namespace.get("__annotations__", {}))
            defaults = [namespace[f] for f in fields if f in namespace]
            if any(f not in namespace for f in fields[len(fields) - len(defaults) :]):
                raise TypeError(f"{name}: a field without a default follows one with a default")
            cls = namedtuple(name, fields, defaults=defaults, module=namespace.get("__module__"))
            cls.__qualname__ = namespace.get("__qualname__", name)
            for key, value in namespace.items():
                if key not in fields and key not in _NOT_COPIED:
                    setattr(cls, key, value)
            return cls

    class Record(metaclass=_RecordType):
        """The base of typed records (see the module docstring)."""
