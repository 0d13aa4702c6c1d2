"""inspect.signature works on every public callable of ixdb (the C methods
carry text signatures), and the stubs (ixdb/__init__.pyi, rows.pyi, with
py.typed) name exactly the module's public names and class members."""

import ast
import inspect
import os
import unittest

import ixdtest
from ixdtest import ixdb

PKG = os.path.dirname(ixdb.__file__)


def ours(obj):
    return getattr(obj, "__module__", "") in ("ixdb", "ixdb.rows", "ixdb._ixdb")


def public(names):
    return {n for n in names if not n.startswith("_")}


def members(cls):
    """Public attributes of cls and its ixdb bases (not object's or
    Exception's), with __enter__ / __exit__."""
    names = set()
    for k in cls.__mro__:
        if k in (object, BaseException, Exception):
            continue
        names |= public(vars(k)) | ({"__enter__", "__exit__"} & set(vars(k)))
    return names


def stub_names(path):
    """Top-level names a stub exports, and the members of each class. An
    import from another package is not exported (PEP 484 stub rules)."""
    tree = ast.parse(open(path).read())
    names, classes = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets}
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            names |= {a.asname for a in node.names if a.asname}
        if isinstance(node, ast.ClassDef):
            body = set()
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    body.add(m.name)
                elif isinstance(m, ast.AnnAssign):
                    body.add(m.target.id)
            classes[node.name] = body
    return public(names), classes


class Signatures(unittest.TestCase):
    def check(self, obj, label):
        try:
            return inspect.signature(obj)
        except (ValueError, TypeError) as e:
            self.fail("%s: %s" % (label, e))

    def test_every_public_callable(self):
        checked = 0
        for mod in (ixdb, ixdb.rows):
            for name in sorted(public(dir(mod))):
                obj = getattr(mod, name)
                if not callable(obj) or not ours(obj):
                    continue  # Date, Binary ...: the standard library's types
                self.check(obj, name)
                checked += 1
                if isinstance(obj, type):
                    for m in sorted(members(obj)):
                        attr = getattr(obj, m)
                        if callable(attr) and not isinstance(attr, type):
                            self.check(attr, "%s.%s" % (name, m))
                            checked += 1
        self.assertGreater(checked, 40)

    def test_c_method_signatures(self):
        sig = self.check(ixdb.Cursor.execute, "execute")
        self.assertEqual(list(sig.parameters), ["self", "operation", "parameters"])
        self.assertIsNone(sig.parameters["parameters"].default)
        self.assertEqual(sig.parameters["operation"].kind, inspect.Parameter.POSITIONAL_ONLY)
        sig = self.check(ixdb.Cursor.scroll, "scroll")
        self.assertEqual(sig.parameters["mode"].default, "relative")
        sig = self.check(ixdb.Connection.cursor, "cursor")
        self.assertEqual(list(sig.parameters), ["self", "scrollable", "withhold"])
        sig = self.check(ixdb.Months, "Months")
        self.assertEqual(list(sig.parameters), ["months", "years"])
        self.assertIn("Returns None", ixdb.Cursor.nextset.__doc__)
        with ixdtest.server().connect() as c:  # bound methods too
            self.assertEqual(list(inspect.signature(c.cursor().fetchmany).parameters), ["size"])


class Stubs(unittest.TestCase):
    def test_files_shipped(self):
        for f in ("__init__.pyi", "rows.pyi", "py.typed"):
            self.assertTrue(os.path.exists(os.path.join(PKG, f)), f)

    def test_stub_names_exactly_the_public_names(self):
        names, classes = stub_names(os.path.join(PKG, "__init__.pyi"))
        self.assertEqual(names, public(dir(ixdb)))
        for cls in ("Connection", "Cursor", "Months", "DBAPITypeObject", "Error", "Warning"):
            real = members(getattr(ixdb, cls))
            if cls == "DBAPITypeObject":
                real |= public(vars(ixdb.STRING))  # instance attributes
            if issubclass(getattr(ixdb, cls), BaseException):
                real -= {"args", "with_traceback", "add_note"}
            stub = {n for n in classes[cls] if not n.startswith("_") or n in real}
            self.assertEqual(stub, real, cls)

    def test_rows_stub(self):
        names, _ = stub_names(os.path.join(PKG, "rows.pyi"))
        self.assertEqual(names, public(ixdb.rows.__all__))


if __name__ == "__main__":
    ixdtest.main()
