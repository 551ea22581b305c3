"""halogen's families, their homes and their variants as a run records them: halogen_perf writes
the registry (schedules/registry.def) into each run's context, so the report groups and orders
what it reads without a list of its own.

    "families": "family:home;family:home;..."                  in registry order
    "variants": "family:variant,variant,...;family:..."        each family's in registry order

(perf/bench_main.cpp, add_context, writes them; perf/runs/ and perf/tests/fixtures/ hold examples.)

A family's home is the group (table) the report puts it in. A run made before halogen_perf
recorded these keys says nothing of homes or variant order: each of its families is a group of
its own and its variants sort by name. So does a family the recorded registry does not name."""

from dataclasses import dataclass, field
from typing import Dict, Iterable, List


def entries(context: dict, key: str, source: str) -> Dict[str, str]:
    """`key`'s "name:value;name:value" as {name: value}, in its order; {} when the run lacks it."""
    text = context.get(key, "")
    found = {}
    for entry in filter(None, text.split(";")):
        name, sep, value = entry.partition(":")
        if not sep or not name:
            raise ValueError(f"{source}: context '{key}' has entry {entry!r}, not name:value")
        found[name] = value
    return found


@dataclass
class Registry:
    """The registry of the runs read: homes[family] and variants[family], families in the order
    they first appear in the runs' "families"; a later run's entry for a family replaces an
    earlier one's."""
    homes: Dict[str, str] = field(default_factory=dict)
    variants: Dict[str, List[str]] = field(default_factory=dict)

    def add(self, context: dict, source: str = "run") -> None:
        self.homes.update(entries(context, "families", source))
        for family, names in entries(context, "variants", source).items():
            self.variants[family] = [v for v in names.split(",") if v]

    def home(self, family: str) -> str:
        """The family's home, its group; the family itself when the runs do not record it."""
        return self.homes.get(family, family)

    def families_of(self, home: str) -> List[str]:
        """The recorded families whose home is `home`, in registry order."""
        return [f for f, h in self.homes.items() if h == home]

    def home_order(self, home: str):
        """Sort key of groups: recorded homes by the first appearance of their families, then the
        others by name."""
        homes = list(dict.fromkeys(self.homes.values()))
        return (homes.index(home) if home in homes else len(homes), home)

    def variant_order(self, families: Iterable[str]) -> List[str]:
        """The variants of `families` in registry order (of the families, then of their variants);
        [] when none is recorded, and the report then sorts variants by name."""
        wanted = set(families)
        return list(dict.fromkeys(v for f, names in self.variants.items() if f in wanted for v in names))
