"""The build step pyproject.toml cannot say: the translation catalogs compiled (issue 26).

Every ``arcade/locale/<code>/LC_MESSAGES/*.po`` becomes the ``.mo`` beside it in the wheel
(package data); an editable install (``pip install -e .``) compiles them in place, beside the
``.po`` (the ``.mo`` files are never committed: .gitignore).  Babel compiles them: it is a build
requirement (pyproject.toml), and ``arcade.i18n.compile_catalog`` is the one way the project
compiles a catalog (``tools/i18n.py compile`` uses it too).  Everything else is in pyproject.toml.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _i18n() -> ModuleType:
    """``arcade/i18n.py`` loaded on its own (standard library only; the package is not installed yet)."""
    spec = importlib.util.spec_from_file_location("_focus_arcade_i18n", HERE / "arcade" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


class build_py_with_catalogs(build_py):
    """``build_py``, then each ``.po`` compiled to a ``.mo``: into the build folder (the wheel), or
    beside the ``.po`` in an editable install (where setuptools' own ``build_py`` copies nothing)."""

    def _targets(self) -> list[tuple[Path, Path]]:
        """(a ``.po`` file, the ``.mo`` it is compiled to)."""
        package = Path(self.get_package_dir("arcade"))
        out = package if self.editable_mode else Path(self.build_lib, "arcade")
        return [(po, out / po.with_suffix(".mo").relative_to(package))
                for po in sorted(package.glob("locale/*/LC_MESSAGES/*.po"))]

    def run(self) -> None:
        super().run()
        try:
            i18n = _i18n()
            for po, mo in self._targets():
                i18n.compile_catalog(po, mo)
                print(f"compiled {po} -> {mo}")
        except ImportError as exc:
            raise SystemExit(f"Babel is needed to compile the translation catalogs ({exc}): pip install babel") from exc

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        built = [] if self.editable_mode else [os.fspath(mo) for _, mo in self._targets()]
        return [*super().get_outputs(include_bytecode), *built]


setup(cmdclass={"build_py": build_py_with_catalogs})
