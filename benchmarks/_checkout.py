"""What a benchmark runs in a subprocess to import a given checkout's own code as ``scorebook``
(not whichever one is installed): the launcher's first lines, shared by the scripts that put two
checkouts side by side (``versions.py``, ``service_attacks.py``). The checkout keeps its layers
as top-level folders and setup.py maps them to ``scorebook.<layer>``; this does the same mapping
without installing it. An older checkout, from before the package, has no ``scorebook`` folder
and its layers import as they are (``use_checkout`` returns False)."""

USE_CHECKOUT = r'''
import importlib.util
import sys
from pathlib import Path


def use_checkout(root):
    """Map ``scorebook`` and its layers to the folders of the checkout at ``root``, as its
    setup.py does; False for a checkout from before the package (top-level layers)."""
    root = Path(root)
    if not (root / "scorebook" / "__init__.py").exists():
        return False  # its layers import from PYTHONPATH, the checkout (versions.py sets it)

    def package(name, folder):
        spec = importlib.util.spec_from_file_location(name, folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module
    top = package("scorebook", root / "scorebook")
    for layer in ("cli", "records", "engines", "analyze", "service"):
        if (root / layer / "__init__.py").exists():
            setattr(top, layer, package("scorebook." + layer, root / layer))
    return True
'''


def run_task(source: str, checkout, *args: str, timeout: int = 3600) -> dict:
    """Run ``source`` (a script that begins with USE_CHECKOUT and prints a JSON line last) in a
    fresh process importing ``checkout``'s code (None: this one), outside any checkout; its
    last line as a dict."""
    import json
    import os
    import subprocess
    import sys
    import tempfile
    from pathlib import Path
    here = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = str(checkout) if checkout else ""
    root = checkout or here
    with tempfile.TemporaryDirectory() as cwd:  # not a checkout: its folders must not import
        done = subprocess.run([sys.executable, "-c", source, *args, str(root)], cwd=cwd, env=env,
                              capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise SystemExit(f"{args[0] if args else 'task'} failed in {root}:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def byte_compiled(root) -> None:
    """Write the bytecode of every module of the checkout at ``root`` (``compileall``), as an
    install by pip does. A timed command then loads it, as a user's does, instead of compiling
    its modules from source at every start: a machine that sets PYTHONDONTWRITEBYTECODE (this
    one does) never writes it for an editable checkout, which cost each command 0.1-0.15 s."""
    import compileall
    from pathlib import Path
    for folder in sorted(Path(root).iterdir()):
        if (folder / "__init__.py").exists():
            compileall.compile_dir(str(folder), quiet=1)
