"""Whether a submission reaches into the grader, read from its source on the trusted side.

The probes run in the submission's own process (they must call its functions), so
code of the submission could replace a probe, patch what a probe calls, or find the
harness's objects and change them: ``REGISTRY["part04.count_scenario"] = forged``,
``os.mkdir = quiet`` (a pickle's call that then does nothing), a dispatch mode
looked for to behave only while watched. Whatever such a probe reports is plain data
the trusted side checks, but the data would no longer be what the submission's
functions did. No reading can prove code harmless; this one refuses, anywhere in
the submission's modules (code that never runs too: nothing honest writes these),
the ways there are to get at code the submission did not write:

* importing the grader or the tests (``grader``, ``tests``, ``conftest``, pytest's internals),
  ``ctypes`` or ``builtins`` (any other module below is refused where it is used, not imported: a
  self-check's ``import doctest`` at the top, used in the ``__main__`` block, is no reach);
* what reaches other code's namespaces, frames or live objects, or turns text into code or objects
  (``REACHING_FUNCTIONS``, however reached: ``logging.sys.modules`` is ``sys.modules``): ``sys.modules``,
  ``sys._getframe``, ``gc.get_objects``, ``inspect.stack``, ``importlib.import_module``,
  ``pkgutil.resolve_name``, ``pickle.loads``, ``types.FunctionType``; ``exec``, ``eval``,
  ``__import__``, ``globals()``; and attributes that lead there on any object (``f_back``,
  ``__globals__``, ``__closure__``, ``__code__``, ``__subclasses__``), read as attributes, in a
  match pattern (``case object(__closure__=c)``) or as text;
* what reads or writes memory by address (numpy's ``as_strided``, an ``__array_interface__`` or a class's
  ``__getattr__``, which numpy believes, a storage made from a pointer) or unpickles bytes of the submission's
  own by other names (``multiprocessing``, ``pickle._loads``, ``np.load(..., allow_pickle=True)``, torch's
  loader given a pickle module); an attribute bound by a name built at run time (a namespace written into,
  a class or a namespace made at run time, ``setattr`` of its own object but by a name that starts with a
  letter written out);
* the private functions that tell whether a dispatch or function mode is active;
* replacing or changing a library's objects: a store into (or ``del`` of) an attribute or item of
  an imported module or what it holds (``os.mkdir = f``, ``torch.Tensor.__eq__ = f``,
  ``probe.REGISTRY[k] = v``), also through a name bound to one (``o = os``, a loop over modules, a
  default argument, a class attribute, a branch ``torch.cuda if c else None``, an item of a table of
  them ``DEVICES[d]``), ``setattr`` on one, or a call that changes a collection held there (``.update``,
  ``.pop``); torch's flags, ``os.environ`` and ``sys.path`` excepted;
* a module handed on as a value where no name follows it, by its own name or as another's attribute
  (``f(os.path)``, ``F.torch``, ``*mods, = (os, time)``, a table of modules iterated);
* a star import whose names cannot be read (any but ``STAR_SOURCES``' and torch's and numpy's public
  modules'), or that binds one refused here; what one binds is read as what it is;
* ``getattr``, ``setattr``, ``delattr``, ``hasattr`` or ``operator.attrgetter`` of a name built at
  run time, but on ``self``, a dtype's name on torch or numpy with its prefix written out
  (``f"float{bits}"``), a name that can only hold strings written out in the source (a loop over a
  literal table, its keys or a column of its rows, a helper's parameter every call gives a literal:
  ``grader.harness.literal_names``, which reads each scope and what other modules could change), or
  a dataclass's ``f.name`` (and so no name of those below bound anywhere, no ``make_dataclass`` but of fields
  written out); those
  functions handed on as values (``functools.reduce(getattr, ...)``); and ``object.__setattr__`` on
  anything but ``self`` (``super().__setattr__`` and a frozen dataclass's ``__post_init__`` are honest);
* ``text.format(...)`` or ``.format_map`` of text built at run time (a field ``{0.__closure__}`` is a getattr
  by a name written in the text), and of text written out whose fields name what the above refuses.

A function's parameters and its names bound to other things shadow the module's imports
(``def set_lr(optim, lr)`` beside ``from torch import optim``).

A module's code runs only in the workers that import it (each part's questions go to a
worker that imported that part's module alone, with what it imports:
``grader.harness.transport.ALONE``), so such a line can touch only those parts, and only
their tests fail (``imported_with``): the tests of the part whose module has it, of any part
whose module imports that module, and, for the package's ``__init__`` (every worker runs
it), every test. The same reading runs in the public tests, so a student sees the refusal
at home, with the line to change, before grading does.
"""

from __future__ import annotations

import ast
import builtins
import functools
import importlib.util
import inspect
import sys
import types
from dataclasses import dataclass

from grader.harness.literal_names import ROUNDS, LiteralStrings, _loads, _no_value
from grader.harness.source import (CLASS_DECORATORS, MAX_DEPTH, _bound_counts, _import_binding,
                                   constant_class_namespaces, format_fields, match_positions, names_only_reads,
                                   nesting_depth, reached_as, walk)

# the packages of the grader, the tests and the test runner: no module of a submission needs them
# (and what reaches memory by address, or swaps the built-ins)
FORBIDDEN_IMPORTS = frozenset(["grader", "tests", "selftest", "conftest", "_pytest", "pluggy", "ctypes", "_ctypes",
                               "builtins", "__builtin__"])
# of what is refused below, the modules whose import runs code of its own choosing (a customize file); any other
# is refused where it is used, not where it is imported: ``import doctest`` or ``from pdb import set_trace`` at
# the top, used only in the ``__main__`` block (which no reading sees), is a self-check, not a reach
RUN_AT_IMPORT = frozenset(["site", "sitecustomize", "usercustomize"])
# what numpy asks an object for to make an array of memory the object names by address (any such attribute,
# and a class's attribute hook, which answers for every name): read as text, bound, defined or read anywhere
ADDRESSED = ("__array_interface__", "__array_struct__", "__cuda_array_interface__", "__getattr__")
# an object that says it is of another class (a ``__class__`` defined, bound in a class body, set, or named as text):
# ``self.__class__.attr = f`` (or ``type(self)``, after ``self.__class__ = torch.nn.Module``) then stores into a
# library's class where every reading sees a class of the submission's own; nothing honest writes these
CLASS_SWAP = "__class__"
# functions that hand back frames, modules or objects by a name given as text, run text or pickles as code,
# or make functions of code objects (however reached: ``logging.sys.modules`` is ``sys.modules``)
REACHING_FUNCTIONS = frozenset([
    "sys.modules", "sys._getframe", "sys._current_frames", "sys._current_exceptions", "sys.settrace",
    "sys.setprofile", "sys.addaudithook", "sys.meta_path", "sys.path_hooks", "sys.path_importer_cache",
    # where a coroutine was made: the file, line and function of each frame above (``cr_origin``); the
    # module of a frame up the stack, and the monitoring that hands over code objects (Python 3.12)
    "sys.set_coroutine_origin_tracking_depth", "sys._getframemodulename", "sys.monitoring",
    "threading.settrace", "threading.setprofile",
    # whether a trace or profile function is set (a probe's watch sets one): code that asks can tell a watched
    # call from a plain one, and behave only while watched
    "sys.gettrace", "sys.getprofile", "threading.gettrace", "threading.getprofile",
    "gc.get_objects", "gc.get_referrers", "gc.get_referents",
    "inspect.stack", "inspect.trace", "inspect.currentframe", "inspect.getouterframes", "inspect.getinnerframes",
    "inspect.getmodule", "inspect.getmembers", "inspect.getmembers_static", "inspect.getclosurevars",
    # what reads a function's code object for it (the file and name it was made in: a probe's, handed to a
    # spec function such as count_matmul_flops, says a check is watching), or the code objects themselves
    "dis", "inspect.getsource", "inspect.getsourcelines", "inspect.getsourcefile", "inspect.getfile",
    "inspect.getabsfile", "inspect.findsource", "inspect.getcomments",
    "importlib.import_module", "importlib.reload", "importlib.__import__", "importlib.util.module_from_spec",
    "importlib.util.spec_from_file_location", "importlib.util.spec_from_loader", "importlib.machinery",
    "importlib.resources", "importlib._bootstrap", "importlib._bootstrap_external", "importlib.abc",
    "importlib.util.LazyLoader", "importlib.find_loader", "_frozen_importlib", "_frozen_importlib_external", "_imp",
    "imp", "zipimport",
    "pkgutil", "site", "sitecustomize", "usercustomize", "pkgutil.resolve_name", "pkgutil.get_importer", "pkgutil.iter_modules",
    "pkgutil.walk_packages", "pydoc.locate", "pydoc.safeimport", "runpy", "code.interact", "codeop",
    "pickle.loads", "pickle.load", "pickle.Unpickler", "_pickle", "marshal.loads", "marshal.load", "copyreg",
    "shelve", "dill", "cloudpickle", "unittest.mock", "torch._utils._import_dotted_name", "logging.config",
    "types.FunctionType", "types.CodeType", "types.LambdaType", "types.ModuleType", "types.MethodType",
    "string.Formatter",
    "inspect.getattr_static", "inspect.get_annotations", "typing.get_type_hints", "typing.ForwardRef",
    "typing_extensions.get_type_hints", "pydoc", "cProfile", "profile", "pdb", "bdb", "doctest", "trace", "code",
    "timeit.main", "_string", "torch.library",
    # what turns text into an object or runs it as code by other names: TorchScript's name resolvers (a dotted
    # name looked up in a module or in a function's globals), functions made of source text, a class's
    # attributes handed back as objects, code loaded from a folder or compiled (entry points, by name below)
    "torch._jit_internal", "torch.jit.annotations", "torch.jit.frontend", "inspect.classify_class_attrs",
    "torch.fx.graph_module._forward_from_src",
    "torch.fx.graph_module._exec_with_source", "torch.fx.graph_module._method_from_src", "dataclasses._create_fn",
    "typing._eval_type", "torch.hub", "torch.package", "torch.utils.cpp_extension", "torch.utils._import_utils",
    "torch.utils._python_dispatch._get_current_dispatch_mode", "ctypes", "numpy.ctypeslib",
    # what tells a function who called it (the probe that watches it): the stack as text, frames, or a
    # caller's file, line and name (a signal handler is handed the frame it interrupted)
    "traceback.extract_stack", "traceback.walk_stack", "traceback.format_stack", "traceback.print_stack",
    "traceback.StackSummary", "faulthandler", "tracemalloc", "signal.signal", "_thread",
    # ... or the frames an exception passed through (a callback the harness handed over raised: its locals),
    # and a frame's locals or source for it
    "traceback.walk_tb", "traceback.TracebackException", "inspect.getargvalues", "inspect.getframeinfo", "cgitb",
    # what turns off the run-time type checks the tests apply to Part 6's annotations (``jaxtyped`` skips a
    # function marked ``__no_type_check__``; jaxtyping's config can disable every check)
    "typing.no_type_check", "typing.no_type_check_decorator", "typing_extensions.no_type_check",
    "typeguard.typeguard_ignore", "typeguard.suppress_type_checks", "jaxtyping.config", "jaxtyping._config",
    # what unpickles bytes of the submission's own by other names (a pipe's or a queue's recv, an object
    # collective, the pure-Python unpickler, torch's loader under its private names)
    "multiprocessing", "torch.multiprocessing", "torch.distributed", "pickle._loads", "pickle._load",
    "pickle._Unpickler", "torch.serialization._load", "torch.serialization._legacy_load",
    # what reads and writes memory by address: numpy's views with strides of its own choosing (an object's
    # address from id() and every object of the process is in reach)
    "numpy.lib.stride_tricks.as_strided", "numpy.lib._stride_tricks_impl.as_strided",
    "numpy.lib.stride_tricks.DummyArray", "numpy.lib._stride_tricks_impl.DummyArray", "torch.storage._load_from_bytes",
    # what imports a module by a dotted name given as text, or installs a finder ahead of the worker's own
    "warnings._getcategory", "warnings._setoption", "warnings._processoptions", "jaxtyping.install_import_hook",
    "jaxtyping._import_hook", "typeguard.install_import_hook", "typeguard.importhook", "typeguard._importhook",
    "beartype.claw",
    # what starts a process: a worker may start none (its filter refuses them when graded; read here, a student
    # sees it at home too, with the line)
    "subprocess", "os.system", "os.popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.posix_spawnp", "os.execl",
    "os.execle", "os.execlp", "os.execlpe", "os.execv", "os.execve", "os.execvp", "os.execvpe", "os.spawnl",
    "os.spawnle", "os.spawnlp", "os.spawnlpe", "os.spawnv", "os.spawnve", "os.spawnvp", "os.spawnvpe", "pty",
    "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell", "concurrent.futures.ProcessPoolExecutor",
    "concurrent.futures.process", "platform.popen",
    # what hands every frame, or the code torch's compiler traces, to a function of the submission's, or switches
    # the compiler back on in a worker (which runs compiled code as written: ``adapters.compile_runs_as_written``)
    "torch._C._dynamo", "torch._dynamo.eval_frame", "torch._dynamo.convert_frame", "torch._dynamo.optimize",
    "torch._dynamo.optimize_assert", "torch._dynamo.register_backend", "torch._dynamo.backends",
    "torch._dynamo.callback", "torch._dynamo.callback_handler", "torch._dynamo.guards", "torch._dynamo.decorators",
    "torch._dynamo.config.disable", "torch._dynamo.config.patch", "torch._dynamo.config.load_config",
    "torch._dynamo.config._config", "torch._dynamo.config.__dict__",
    # AOTAutograd's entry points, which hand the traced graphs to compilers of the caller's own
    "torch._functorch.aot_autograd", "torch._functorch.compile", "functorch.compile"])
# of the modules refused whole, what only tells about the machine or the run (how many cores, which rank)
HARMLESS = frozenset(["multiprocessing.cpu_count", "torch.multiprocessing.cpu_count", "torch.distributed.is_available",
                      "torch.distributed.is_initialized", "torch.distributed.get_rank",
                      "torch.distributed.get_world_size"])
# the test tools a self-check may use at the top of a module (a decorator, a strategy), by what of them it
# may use: the rest runs files or text (``pytest.main``, hypothesis's internals), imports by a dotted name
# (``pytest.importorskip``, ``unittest.main(module=...)``, a loader's ``loadTestsFromName``) or patches
# a library by a name (``pytest.MonkeyPatch``), and is refused where it is used
TEST_TOOLS = {
    "pytest": frozenset(["mark", "fixture", "raises", "approx", "param", "skip", "fail", "xfail", "warns",
                         "deprecated_call"]),
    "hypothesis": frozenset(["given", "settings", "example", "assume", "reject", "strategies", "HealthCheck", "note",
                             "target", "event", "seed", "Verbosity", "Phase"]),
    "unittest": frozenset(["TestCase", "skip", "skipIf", "skipUnless", "expectedFailure", "SkipTest"]),
}
# what einops' steps go through, under ``einops.einops`` (with any private name of einops'): the watch on einops
EINOPS_INTERNALS = frozenset(["get_backend", "_backends"])
# the same, by their last name, whatever they are read on (``vars`` of a module hands its namespace)
REACHING = frozenset(["_getframe", "_current_frames", "_current_exceptions", "settrace", "setprofile",
                      "gettrace", "getprofile",
                      "get_objects", "get_referrers", "get_referents", "currentframe", "getouterframes",
                      "getinnerframes", "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame",
                      "gi_frame", "cr_frame", "ag_frame", "__globals__", "__closure__", "__code__",
                      "__builtins__", "__subclasses__", "__import__", "__loader__", "__spec__",
                      "addaudithook", "import_module", "__setattr__", "__delattr__", "__getattribute__",
                      "__func__", "__self__", "__mro__", "__base__", "__bases__", "__reduce__", "__reduce_ex__",
                      "__objclass__", "__defaults__", "__kwdefaults__", "__wrapped__", "ctypes", "ctypeslib",
                      "resolve_name", "_import_dotted_name", "getclosurevars", "getattr_static", "__annotations__",
                      "meta_path", "path_hooks", "path_importer_cache", "__no_type_check__", "make_dataclass",
                      "load_module", "exec_module", "_load_module_shim",  # a loader run by hand: no finder asked
                      # ... or asked for its module (a built-in's loader hands out the live one: builtins, posix)
                      # or its code object (red team: find_spec(...).loader.create_module(spec))
                      "create_module", "get_code",
                      "findCaller",  # logging's: the caller's file, line and name
                      "cr_origin",  # a coroutine's: where the frames that made it stand
                      # the resolvers and code makers above, wherever they are read from
                      "createResolutionCallbackFromEnv", "createResolutionCallbackFromClosure",
                      "createResolutionCallbackForClassMethods", "classify_class_attrs",
                      "EntryPoint", "entry_points", "load_entry_point",  # "module:attribute" imported and read
                      "_forward_from_src", "_exec_with_source", "_method_from_src", "_create_fn",
                      "_eval_type", "load_inline",
                      # memory by address: an array that says where its data is (numpy believes it; an attribute
                      # hook can say it for any name), storages made from a pointer
                      "__getattr__", "_construct_storage_from_data_pointer", "_new_with_weak_ptr", "_set_cdata",
                      "_free_weak_ref", "_swap_data_ptr_", "_new_using_fd_cpu", "_new_shared_fd_cpu",
                      "_new_using_filename_cpu", "_new_shared_filename_cpu", "_dlpack_exchange_api",
                      "DummyArray", "ForkingPickler",
                      # a partial's options, changed after the reading read them (``functools.partial(torch.load,
                      # weights_only=True)``, then ``.keywords["weights_only"] = False``)
                      "keywords", "__setstate__",
                      "__get__"])  # a function bound to any object as its ``self`` (with ``types.MethodType``)
# str's methods that look attributes up by names written in their text (``"{0.grad}".format(w)`` is w.grad)
FORMATTERS = frozenset(["format", "format_map"])
# built-in names that run text as code, import by a name given as text, or hand a namespace out
RUNNERS = frozenset(["exec", "eval", "compile", "__import__", "breakpoint", "globals"])
# what runs a statement given as text (its text is read as code here; text built at run time is refused)
TEXT_RUNNERS = frozenset(["timeit.timeit", "timeit.repeat", "timeit.Timer", "torch.utils.benchmark.Timer",
                          "torch.utils.benchmark.utils.timer.Timer"])
# torch's private functions that tell whether a dispatch or function mode (a watcher) is active, or hide from one
MODE_PEEKS = frozenset(["_get_current_dispatch_mode", "_get_current_dispatch_mode_stack",
                        "_len_torch_dispatch_stack", "_get_dispatch_stack_at", "_get_dispatch_mode",
                        "is_in_torch_dispatch_mode", "_get_current_function_mode", "_get_current_function_mode_stack",
                        "_len_torch_function_stack", "_get_function_stack_at", "_is_torch_function_mode_enabled",
                        "_pop_mode", "_pop_torch_dispatch_stack", "_pop_torch_function_stack",
                        "_unset_dispatch_mode",
                        # and those that switch them off, or push and pop them by hand: code run so hides its ops
                        # from every watcher (``with torch._C._DisableTorchDispatch(): ...``)
                        "_DisableTorchDispatch", "_disable_current_modes", "_pop_mode_temporarily",
                        "_DisablePythonDispatcher", "DisableTorchFunction", "DisableTorchFunctionSubclass",
                        "_disabled_torch_dispatch_impl", "_disabled_torch_function_impl", "_DisableFuncTorch",
                        "ExcludeDispatchKeyGuard", "_ExcludeDispatchKeyGuard", "_SetExcludeDispatchKeyGuard",
                        "_ForceDispatchKeyGuard", "_IncludeDispatchKeyGuard", "_PreserveDispatchKeyGuard",
                        "_dispatch_tls_set_dispatch_key_excluded", "_dispatch_tls_set_dispatch_key_included",
                        "_dispatch_tls_local_exclude_set", "_dispatch_tls_local_include_set",
                        "_AutoDispatchBelowAutograd", "_AutoDispatchBelowADInplaceOrView", "_EnablePythonDispatcher",
                        "_set_dispatch_mode", "_push_mode", "_push_on_torch_dispatch_stack",
                        "_push_on_torch_function_stack", "_set_torch_function_state", "_get_torch_function_state",
                        "_TorchFunctionState", "_skip_one_hop_torch_function", "_set_skip_next_torch_function",
                        "_peek_should_skip_torch_function", "_is_torch_function_enabled",
                        "_is_torch_function_all_disabled", "_enable_torch_function", "_disable_infra_mode",
                        "_unset_infra_mode", "_detect_infra_mode", "_is_in_torch_dispatch_mode",
                        "_is_in_non_infra_torch_dispatch_mode", "_is_in_any_mode_without_ignore_compile_internals",
                        "_dispatch_call_boxed", "_dispatch_keys", "_dispatch_key_set"])
# torch's list of what its weights_only unpickler may call besides tensors and containers: a function put there
# (shutil.rmtree) is called by any checkpoint whose pickle names it, ``weights_only=True`` written out or not
UNPICKLER_ALLOWS = frozenset(["add_safe_globals", "safe_globals", "_add_safe_globals", "_marked_safe_globals_set",
                              "_get_allowed_globals", "_get_user_allowed_globals", "_safe_globals",
                              # the classes it builds its list from (``torch._tensor_classes.add(shutil.rmtree)``)
                              "_tensor_classes", "_storage_classes"])
ALLOWS_UNPICKLING = ("lets torch.load's weights_only unpickler call what it is given, and any checkpoint's pickle "
                     "may name that; a checkpoint of tensors, dicts, lists and numbers needs no such list")
# the calls that take a stacklevel (warnings', a logger's): a ``**`` of options not written out handed to one is
# read as asking where its callers are
WARNS_OR_LOGS = frozenset(["warn", "warning", "info", "debug", "error", "exception", "critical", "fatal", "log"])


def _level_one(node: ast.AST) -> bool:
    """A stacklevel written out as 1: the caller's own line, never a frame above it."""
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 1


def _no_stack(node: ast.AST) -> bool:
    """A stack_info written out as False (or None): no stack printed."""
    return isinstance(node, ast.Constant) and node.value in (False, None)


# a module's names that decide where its relative imports resolve (``__package__ = "torch"``, then ``from .version
# import debug`` is torch's): bound or set by the submission, its readings of its own modules are not what runs
IMPORT_ANCHORS = frozenset(["__package__", "__name__", "__path__", "__spec__"])
# names (read as text: a getattr, a key, a match pattern's attribute) that lead where the above do
NAMED = REACHING | MODE_PEEKS | UNPICKLER_ALLOWS | frozenset(["modules", "__dict__", "__package__", "__path__",
                                                              *ADDRESSED])
# the libraries a module may take every name of (``from math import *``), whatever they bind; torch's and numpy's
# other modules too (``from torch.nn.init import *``), read as what they bind (``_star_names``), if none of those
# names is one this reading refuses; others' (``sys``'s, ``gc``'s) may hand out what it refuses by name
STAR_SOURCES = frozenset(["math", "cmath", "einops", "jaxtyping", "typing", "typing_extensions", "dataclasses",
                          "functools", "itertools", "collections", "numpy", "torch", "torch.nn", "torch.nn.functional",
                          "time", "statistics", "fractions", "decimal", "enum", "abc"])
# what a device's module is asked at once (``getattr(torch, device.type).synchronize()``)
DEVICE_CALLS = frozenset(["synchronize", "is_available", "device_count", "current_device", "empty_cache",
                          "get_device_name", "max_memory_allocated", "reset_peak_memory_stats", "memory_allocated",
                          "Event", "Stream", "current_stream", "default_stream", "stream", "is_bf16_supported",
                          "get_device_properties", "get_device_capability", "mem_get_info", "memory_reserved",
                          "max_memory_reserved", "manual_seed", "manual_seed_all", "set_device", "device"])
# what of a library's may be set: flags and the environment, not code (each with what is inside it)
SETTABLE = ("torch.backends", "os.environ", "sys.path", "torch._dynamo.config", "torch._inductor.config",
            "torch._functorch.config")
# a dtype looked up by a name built from one of these (``getattr(torch, f"float{bits}")``): nothing of torch's
# or numpy's that starts so leads anywhere
DTYPE_PREFIXES = ("float", "bfloat", "int", "uint", "complex", "double", "half", "bool", "long", "short")
# calls that change a dict or a list in place
MUTATORS = frozenset(["update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__", "append",
                      "extend", "insert"])
# ``object.__setattr__(self, ...)``, ``super().__setattr__(...)``: how a class sets its own fields
OWN_SETTERS = frozenset(["__setattr__", "__delattr__"])
LIBRARY = "a library"  # what a name bound to one of several imported objects, a module among them, stands for
SEVERAL = "one of several library objects"  # ... none of them a module (torch.float32 or torch.bfloat16)


def _settable(dotted: str) -> bool:
    """A flag of ``SETTABLE``'s, but one that reaches (``torch._dynamo.config.disable``)."""
    return any(dotted == place or dotted.startswith(place + ".") for place in SETTABLE) and not _reaching(dotted)


REACHING_DOTTED = frozenset(name for name in REACHING_FUNCTIONS if "." in name)


def _reaching(dotted: str) -> bool:
    """Whether a resolved name is one of ``REACHING_FUNCTIONS`` or inside one, however reached: a dotted entry
    by any tail of the name (``logging.sys.modules``), a module's own name only from its start
    (``torch.profiler.profile`` is not the standard library's ``profile``)."""
    if dotted in HARMLESS:
        return False
    root, _, rest = dotted.partition(".")
    if root in TEST_TOOLS and rest and (rest.split(".")[0] not in TEST_TOOLS[root]
                                        or any(part.startswith("_") for part in rest.split("."))):
        return True
    # einops' internals, which Part 6's probe swaps to watch each einops step (``einops.einops.get_backend``,
    # ``_apply_recipe``): code that reads them can tell a watched call from a plain one, and use einops only then
    if root == "einops" and any(part in EINOPS_INTERNALS or part.startswith("_") for part in rest.split(".")):
        return True
    return reached_as(dotted, REACHING_DOTTED) or any(
        dotted == name or dotted.startswith(name + ".") for name in REACHING_FUNCTIONS - REACHING_DOTTED)


def _packet(path: str | None) -> bool:
    """An operator packet's path, written out: ``torch.ops.<namespace>.<op>``."""
    parts = (path or "").split(".")
    return len(parts) == 4 and parts[:2] == ["torch", "ops"] and all(
        p.isidentifier() and not p.startswith("__") for p in parts[2:])


def _plain_prefix(name: ast.AST) -> bool:
    """A name built at run time that starts with a letter written out (``f"layer{i}"``, ``"w" + str(i)``,
    ``"act_%d" % i``): no dunder, no private name."""
    return _written_prefix(name)[:1].isalpha()


def _written_out(node: ast.AST, keys_only: bool = False) -> bool:
    """A dict whose keys are text written out (``keys_only``), or a string, tuple or list of names (or of
    (name, value) pairs) written out: the names a class made at run time is given, read here as text."""
    if isinstance(node, ast.Dict):
        return all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys)
    if keys_only:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(isinstance(e, ast.Constant) and isinstance(e.value, str) or isinstance(e, (ast.Tuple, ast.List))
                   and e.elts and isinstance(e.elts[0], ast.Constant) and isinstance(e.elts[0].value, str)
                   for e in node.elts)
    return False


def _namespace(node: ast.AST) -> bool:
    """``x.__dict__`` or ``vars(x)``: an object's namespace, where a name bound by a key built at run time
    becomes an attribute no reading sees (``__array_interface__``)."""
    return isinstance(node, ast.Attribute) and node.attr == "__dict__" or isinstance(node, ast.Call) \
        and isinstance(node.func, ast.Name) and node.func.id == "vars"


def _one_of(dotted: list[str | None]) -> str | None:
    """What a name bound to one of several library objects stands for (None: one of them, or all, is none)."""
    if not dotted or None in dotted:
        return None
    if len(set(dotted)) == 1:
        return dotted[0]
    return LIBRARY if LIBRARY in dotted or any(map(_is_module, dotted)) else SEVERAL


def _display_items(node: ast.AST) -> list[ast.AST] | None:
    """The items of a tuple, list or dict written out (a dict's values; its keys written-out constants)."""
    if isinstance(node, ast.Dict) and all(isinstance(k, ast.Constant) for k in node.keys):
        return list(node.values)
    if isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        return list(node.elts)
    return None


def _table_read(node: ast.AST) -> ast.Name | None:
    """The table's name where ``node`` reads an item of it: ``T[key]`` or ``T.get(key)``."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
            and isinstance(node.func.value, ast.Name) and 1 <= len(node.args) <= 2 and not node.keywords:
        return node.func.value
    return None


def _followed(targets: list[ast.AST], value: ast.AST) -> bool:
    """Whether ``_bound`` follows an assignment of ``value`` to ``targets``: names, or tuples of names as long
    as a tuple written out (no starred name)."""
    if isinstance(value, (ast.Tuple, ast.List)) and not all(isinstance(t, ast.Name) for t in targets):
        return all(isinstance(t, (ast.Tuple, ast.List)) and len(t.elts) == len(value.elts)
                   and all(isinstance(e, ast.Name) for e in t.elts) for t in targets)
    return all(isinstance(t, ast.Name) for t in targets)


# bases that make a plain class: a NamedTuple's class is a tuple's subclass made by ``type`` (no metaclass of
# its own that would answer isinstance)
PLAIN_BASES = frozenset(["typing.NamedTuple", "typing_extensions.NamedTuple"])


def _plain_classes(tree: ast.AST, dotted) -> set[str]:
    """The names of classes ``tree`` defines, bound by their class statement alone, with no metaclass, no
    decorator but those that hand the class back (``source.CLASS_DECORATORS``) and no base but ``object``,
    ``PLAIN_BASES`` and plain classes of its own: no ``__instancecheck__`` or ``register`` of a library's
    makes anything else an instance of them. (Stricter than the ownership reading's plain classes, which may derive from abc.ABC.)"""
    defined = [n for n in walk(tree) if isinstance(n, ast.ClassDef)]
    counts = _bound_counts(tree)
    plain: set[str] = set()
    grew = True
    while grew:
        grew = False
        for node in defined:
            if node.name not in plain and counts[node.name] == 1 and not node.keywords and all(
                    dotted(d.func if isinstance(d, ast.Call) else d) in CLASS_DECORATORS
                    for d in node.decorator_list) and all(
                    isinstance(b, ast.Name) and (b.id == "object" or b.id in plain) or dotted(b) in PLAIN_BASES
                    for b in node.bases):
                plain.add(node.name)
                grew = True
    return plain


@dataclass(frozen=True)
class Reach:
    """One place a submission reaches into code it did not write."""

    where: str  # "flops.py:12"
    what: str  # "imports grader.harness.probe"

    @property
    def module(self) -> str:
        return self.where.rsplit(".py:", 1)[0]


def reaches(sources: dict[str, str]) -> list[Reach]:
    """Every place in ``sources`` (each module's short name to its text) that reaches into other code."""
    trees: dict[str, ast.Module] = {}
    found: list[Reach] = []
    for name, text in sorted(sources.items()):
        try:
            tree = ast.parse(text, filename=f"{name}.py")
        except (SyntaxError, ValueError):
            continue  # it does not import, and fails every test for that
        except (RecursionError, MemoryError):  # Python, from a shallower stack, may import what fails here
            found.append(Reach(f"{name}.py:1", UNREAD))
            continue
        if nesting_depth(tree) > MAX_DEPTH:
            found.append(Reach(f"{name}.py:1", UNREAD))
        else:
            trees[name] = tree
    try:
        own = {name: _bound(tree) for name, tree in trees.items()}
        bound = own
        for _ in range(len(trees) + 1):  # what a sibling took from its own siblings (a star of a star), in turn
            grown = {name: {**_siblings(tree, bound), **own[name]} for name, tree in trees.items()}
            if grown == bound:
                break
            bound = grown
        methods = _class_methods(trees)
        names = {name: {_named(n) for n in walk(tree)} - {None} for name, tree in trees.items()}  # (read once)
        beside = _run_beside(sources, trees)
        readers = {name: _Reader(f"{name}.py", bound[name],
                                 LiteralStrings(tree, [other for o, other in trees.items() if o in beside[name]]))
                   for name, tree in trees.items()}
        for reader in readers.values():
            reader.strings.learn_siblings({name: r.strings for name, r in readers.items()})
        plain = {name: _plain_classes(tree, readers[name].dotted) for name, tree in trees.items()}
        for name, tree in trees.items():
            reader = readers[name]
            reader.uncalled = _uncalled(name, tree, set().union(*(n for other, n in names.items() if other != name)))
            reader.class_methods = methods
            reader.classes = plain[name] | _sibling_classes(tree, reader, plain, readers)
            reader.trees = trees
            found += reader.read(tree)
    except RecursionError:  # (a deep stack to start from: never read as nothing)
        found += [Reach(f"{name}.py:1", UNREAD) for name in trees]
    return found


# what a self-check runs (a debugger, a profiler, doctest): no reach in a function nothing calls (``_uncalled``)
SELF_CHECK_TOOLS = frozenset(["doctest", "pdb", "bdb", "cProfile", "profile", "pstats", "trace", "code", "timeit",
                              "tracemalloc", "faulthandler", "pydoc", "unittest", "pytest", "hypothesis"])


def _uncalled(name: str, tree: ast.Module, elsewhere: set[str]) -> set[int]:
    """The module's own functions nothing can call: a self-check's ``def main()``, which only the ``__main__``
    block (never read, never run when imported) calls. Undecorated, defined at the top, named by no code of
    the submission but their own bodies (no other module imports or reads the name, no text names it) and
    not a function of the spec (the tests call those by name). A name looked up at run time is refused
    elsewhere, so nothing else reaches them. Everything in them is read as anywhere (code that never runs is
    refused too), but the self-check tools they use (``SELF_CHECK_TOOLS``, ``breakpoint()``). ``elsewhere``:
    what the submission's other modules name."""
    from grader.harness.spec import _Stub

    try:
        spec = set(_Stub.of(name).defs)  # (its functions and classes, and the constants it declares)
    except KeyError:  # no stub of that name: a helper module of the submission's own
        spec = set()
    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                 and not n.decorator_list and n.name not in spec]
    names = [f.name for f in functions]
    functions = [f for f in functions if names.count(f.name) == 1]
    if not functions:
        return set()
    # (their bodies only: decorators, defaults and annotations run where they are defined)
    bodies = {f.name: {id(inner) for statement in f.body for inner in walk(statement)} for f in functions}
    uncalled = {f.name for f in functions if f.name not in elsewhere}
    while True:  # what only functions nothing calls name is called by nothing either (``main`` calls ``_check``)
        inside = set().union(*(bodies[name] for name in uncalled))
        named = {_named(n) for n in walk(tree) if id(n) not in inside and _named(n)}
        kept = {name for name in uncalled if name not in named}
        if kept == uncalled:
            return {id(f) for f in functions if f.name in kept}
        uncalled = kept


def _class_methods(trees: dict[str, ast.Module]) -> dict[str, frozenset[str]]:
    """Each class of the submission (by its name, and any name a module imports it under) -> its plain methods
    (neither static nor class methods): what, read through the class, may be handed anything as ``self``."""
    found: dict[str, set[str]] = {}
    for tree in trees.values():
        for node in walk(tree):
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, set()).update(
                    f.name for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and not any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                                for d in f.decorator_list))
    for tree in trees.values():
        for node in walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                for alias in node.names:
                    if alias.asname and alias.name in found:
                        found.setdefault(alias.asname, set()).update(found[alias.name])
    return {name: frozenset(methods) for name, methods in found.items() if methods}


# a dataclass's and a named tuple's tables of their fields' names (``Reader._field_names``)
FIELD_TABLES = frozenset(["__dataclass_fields__", "_fields"])


@functools.lru_cache(maxsize=64)
def _field_tables_set(trees: tuple[ast.Module, ...]) -> bool:
    """Whether a module of the submission may set a table of fields' names: binds one (a class body's
    ``_fields = ...``, ``x._fields = ...``), or names one as text (``setattr(C, "_fields", ...)``)."""
    for tree in trees:
        for node in walk(tree):
            if isinstance(node, ast.Name) and node.id in FIELD_TABLES and not isinstance(node.ctx, ast.Load) \
                    or isinstance(node, ast.Attribute) and node.attr in FIELD_TABLES \
                    and not isinstance(node.ctx, ast.Load) \
                    or isinstance(node, ast.Constant) and node.value in FIELD_TABLES \
                    or isinstance(node, ast.alias) and (node.asname or node.name) in FIELD_TABLES:
                return True
    return False


def _named(node: ast.AST) -> str | None:
    """The name ``node`` names, if any: a name, an attribute, an import's, or text (``__all__``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.alias):  # ``from .strides import main as run``: imported by itself
        return node.name.split(".")[-1]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


# a tree nested deeper than the readings' MAX_DEPTH (a chain of 3,000 attributes): refused, not read
UNREAD = f"could not be read: something in it is nested more than {MAX_DEPTH} deep (write it flatter)"


def _sibling_classes(tree: ast.Module, own: "_Reader", plain: dict[str, set[str]],
                     readers: dict[str, "_Reader"]) -> set[str]:
    """The names a module binds, once, by importing a plain class of a sibling at its top (``from .dtypes
    import FloatFormat``), where no code of the submission can put anything else in either name."""
    counts = _bound_counts(tree)
    found = set()
    for node in tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module is not None
                and (node.level > 0 or node.module.split(".")[0] == "assignment")):
            continue
        sibling = node.module.split(".")[-1]
        if sibling not in readers:
            continue
        for alias in node.names:
            local = alias.asname or alias.name
            if alias.name in plain[sibling] and counts[local] == 1 and not own.strings._replaceable(local) \
                    and not readers[sibling].strings._replaceable(alias.name):
                found.add(local)
    return found


def _siblings(tree: ast.AST, bound: dict[str, dict[str, str]]) -> dict[str, str]:
    """What names taken from the submission's own modules stand for, where those modules bound them to an
    imported object (``from .helpers import os as o``; ``from . import helpers``, then ``helpers.os``)."""
    names: dict[str, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            parts = node.module.split(".")
            sibling = parts[-1] if node.level > 0 or parts[0] == "assignment" else parts[0]
            for alias in node.names:
                if alias.name in bound.get(sibling, {}):
                    names[alias.asname or alias.name] = bound[sibling][alias.name]
                elif alias.name == "*":  # (what it took from a library, under the names Python copies)
                    names.update({k: v for k, v in bound.get(sibling, {}).items() if "." not in k
                                  and not k.startswith("_")})
        modules = [(a.asname or a.name, a.name) for a in node.names] if isinstance(node, ast.ImportFrom) \
            and (node.level > 0 or node.module == "assignment") and node.module in (None, "assignment") else \
            [(a.asname or a.name, a.name.split(".")[-1]) for a in node.names] if isinstance(node, ast.Import) else []
        for local, sibling in modules:
            names.update({f"{local}.{k}": v for k, v in bound.get(sibling, {}).items() if "." not in k})
    return names


def _run_beside(sources: dict[str, str], trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Each module's others that may run in a process beside it: a question about a module is answered where
    that module and what it imports were imported alone (``grader.harness.transport.ALONE``), so a module runs
    beside another only where one of them imports the other, or a third imports both. Code of a module that
    never runs beside this one (``vars(self)`` in model.py) cannot replace this one's names. A star import of
    the package itself imports what its ``__all__`` lists: read as every module."""
    starred = any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
                  and (node.level > 0 and not node.module or node.level == 0 and node.module == "assignment")
                  for tree in trees.values() for node in walk(tree))
    if starred:
        return {name: set(trees) - {name} for name in trees}
    closure = {name: imported_with(sources, name) for name in sources}
    return {name: set().union(*(c for c in closure.values() if name in c)) - {name} for name in trees}


def imported_with(sources: dict[str, str], module: str) -> set[str]:
    """``module``, the package's ``__init__`` and the submission's modules they import, transitively
    (``from . import x``, ``from .x import y``, ``import assignment.x``, ``from assignment import x``, and a
    sibling by its bare name, ``import helpers``, which the workers resolve too)."""
    seen, todo = set(), [module, "__init__"]
    while todo:
        name = todo.pop()
        if name in seen or name not in sources and name != module:
            continue
        seen.add(name)
        try:
            tree = ast.parse(sources.get(name, ""))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        for node in walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = (node.module or "").split(".")
                if node.level == 0 and base[0] in sources:  # from helpers import x
                    todo.append(base[0])
                elif node.level > 0 or base[0] == "assignment":
                    inner = base[1:] if node.level == 0 else base if node.module else []
                    todo += inner[:1] or [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    todo += parts[1:2] if parts[0] == "assignment" else parts[:1]
    return seen


def _written_prefix(name: ast.AST) -> str:
    """The text written out at the start of a name built at run time (``f"float{bits}"``, ``"int" + str(bits)``,
    ``"float%d" % bits``, ``"float{}".format(bits)``: "float", "int"); "" where none is."""
    while isinstance(name, ast.BinOp) and isinstance(name.op, (ast.Add, ast.Mod)):
        name = name.left
    if isinstance(name, ast.Call) and isinstance(name.func, ast.Attribute) and name.func.attr == "format":
        name = name.func.value
    if isinstance(name, ast.JoinedStr) and name.values:
        name = name.values[0]
    return name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else ""


# make_dataclass's options that name no field and add no code (``namespace=`` and ``bases=`` may)
PLAIN_DATACLASS_OPTIONS = frozenset(["init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only",
                                     "slots", "weakref_slot", "module"])


def _fields_written_out(call: ast.Call) -> bool:
    """``make_dataclass("Limits", [("max", float), "eps"], frozen=True)``: a class name and fields written out, each
    a plain name (none this reading refuses: a field is read back by name as ``f.name``), and only options that add
    no code."""
    if len(call.args) != 2 or any(k.arg not in PLAIN_DATACLASS_OPTIONS for k in call.keywords):
        return False
    fields = call.args[1]
    if not isinstance(fields, (ast.List, ast.Tuple)):
        return False
    names = [field.elts[0] if isinstance(field, ast.Tuple) and field.elts else field for field in fields.elts]
    return all(isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.isidentifier()
               and not n.value.startswith("_") and n.value not in NAMED for n in names)


def _dtype_name(name: ast.AST) -> bool:
    """Whether a name built at run time starts with a dtype's prefix written out (``f"float{bits}"``)."""
    return _written_prefix(name).startswith(DTYPE_PREFIXES)


def _annotations(node: ast.AST) -> list[ast.AST]:
    """A function's annotations: its parameters' and its return's."""
    args = getattr(node, "args", None)
    found = [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
             if a is not None and a.annotation is not None] if args else []
    return found + ([node.returns] if getattr(node, "returns", None) is not None else [])


@functools.lru_cache(maxsize=4096)
def _is_module(dotted: str) -> bool:
    """Whether an imported name is a module, as this process, which imported the libraries, knows them: by
    its own name (``os.path``) or reached through another module's attribute (``os.sys``,
    ``torch.nn.functional.torch``), read without running any library code (``inspect.getattr_static``: no
    module ``__getattr__``), or a submodule not imported yet (``torch._dynamo`` before its first use). Also
    through a class's or an object's attributes on the way (``pathlib.PurePosixPath._flavour.pathmod`` is
    ``posixpath``), as statically."""
    if dotted in sys.modules or dotted.split(".")[0] in FORBIDDEN_IMPORTS:
        return True
    parts = dotted.split(".")
    value = sys.modules.get(parts[0])
    if value is None:
        return False
    for i, part in enumerate(parts[1:], start=1):
        try:
            value = inspect.getattr_static(value, part)
        except AttributeError:
            if i < len(parts) - 1 or ".".join(parts[:i]) not in sys.modules:
                return False
            try:  # a submodule of an imported package, found (never run) by its parent's path
                return importlib.util.find_spec(dotted) is not None
            except (ImportError, ValueError, AttributeError):
                return False
    return isinstance(value, types.ModuleType)


@functools.lru_cache(maxsize=256)
def _star_names(module: str) -> dict[str, str] | None:
    """What ``from module import *`` binds (its ``__all__``, or its public names), for one of ``STAR_SOURCES``,
    torch's or numpy's modules, imported here if need be; None for any other (what it would bind cannot be
    read). Never read from whatever this process happens to have imported: a student's run has imported
    the student's modules' imports, grading has not, and both must read alike."""
    if not (module in STAR_SOURCES or module.startswith(("torch.", "numpy."))) \
            or any(part.startswith("_") for part in module.split(".")):  # (no private module's: none is needed)
        return None
    try:
        library = importlib.import_module(module)
    except Exception:  # noqa: BLE001 - a module that does not import binds nothing that can be read
        return None
    if not isinstance(library, types.ModuleType):
        return None
    names = getattr(library, "__all__", None)
    if not (isinstance(names, (list, tuple)) and all(type(n) is str for n in names)):
        names = [n for n in vars(library) if not n.startswith("_")]
    return {name: _canonical(library, module, name) for name in names}


def _canonical(library: types.ModuleType, module: str, name: str) -> str:
    """The dotted name of what ``module.name`` is: a module by its own name, a function or a class by where it is
    defined (``typing.get_type_hints`` re-exported elsewhere is still typing's), anything else as reached."""
    # read without running any of the library's code: no attribute hook (a CUDA setting's object starts CUDA
    # when asked for an attribute it lacks, and the grading process must never start it)
    try:
        value = inspect.getattr_static(library, name)
    except AttributeError:
        return f"{module}.{name}"
    kind = type(value)
    if issubclass(kind, types.ModuleType):
        own = value.__dict__.get("__name__")  # a module's __dict__ is a plain dict
        return own if type(own) is str else f"{module}.{name}"
    if issubclass(kind, type):
        where, qualname = type.__dict__["__module__"].__get__(value), type.__dict__["__qualname__"].__get__(value)
    elif kind in (types.FunctionType, types.BuiltinFunctionType):
        where, qualname = value.__module__, value.__qualname__
    else:
        return f"{module}.{name}"
    return f"{where}.{qualname}" if type(where) is str and type(qualname) is str else f"{module}.{name}"


def _star_refused(module: str) -> bool:
    """Whether ``from module import *`` is refused: a module outside ``STAR_SOURCES`` whose names cannot be
    read, or that binds a name this reading refuses (``from sys import *`` binds ``modules``)."""
    if module in STAR_SOURCES:
        return False
    names = _star_names(module)
    return names is None or _reaching(module) or any(
        name in NAMED or _reaching(f"{module}.{name}") or _reaching(dotted) for name, dotted in names.items())


def _bound(tree: ast.AST) -> dict[str, str]:
    """What names stand for an imported object, anywhere in the module: imports (``np`` -> ``numpy``), and
    names bound to such an object again (``o = os``, ``o, t = os, time``, ``(o := os)``, ``for o in (os,
    time)``, ``def f(o=os)``, a class's ``T = torch.Tensor`` as ``A.T``), to a fixed point. A name bound to
    several reads as ``LIBRARY`` where one of them is a module (it may be handed on), else as ``SEVERAL``
    (a dtype of two: ``weights = torch.bfloat16``, elsewhere ``torch.float32``)."""
    names: dict[str, str] = {}
    for node in walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name, dotted = _import_binding(alias)
                names[name] = dotted
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                else:  # what it binds, read as imported by name (``from jaxtyping import *`` binds ``inspect``),
                    # each by what it is (a name of a placeholder bound before it is the library's after it)
                    names.update(_star_names(node.module) or {})
    for _ in range(4):  # aliases of aliases
        before = dict(names)
        reader = _Reader("", names)
        for node in walk(tree):
            pairs: list[tuple[ast.AST, ast.AST]] = []
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, (ast.Tuple, ast.List)):
                        pairs += zip(target.elts, node.value.elts)
                    else:
                        pairs.append((target, node.value))
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.iter, (ast.Tuple, ast.List)):
                pairs += [(node.target, item) for item in node.iter.elts]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = node.args
                positional = [*args.posonlyargs, *args.args]
                pairs += [(ast.Name(a.arg), d) for a, d in zip(positional[len(positional) - len(args.defaults):],
                                                               args.defaults)]
                pairs += [(ast.Name(a.arg), d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            elif isinstance(node, ast.ClassDef):
                for statement in node.body:
                    if isinstance(statement, ast.Assign):
                        pairs += [(ast.Name(f"{node.name}.{t.id}"), statement.value) for t in statement.targets
                                  if isinstance(t, ast.Name)]
            for target, value in pairs:
                items = _display_items(value) if isinstance(target, ast.Name) else None
                if items:  # a table of library objects (``{"cuda": torch.cuda, "mps": torch.mps}``): its items
                    one = _one_of([reader.dotted(i) for i in items if not _no_value(i)])
                    if one:
                        names[f"{target.id}[]"] = one if names.get(f"{target.id}[]", one) == one else LIBRARY
                    continue
                dotted = reader.dotted(value)
                if isinstance(target, ast.Name) and dotted:
                    names[target.id] = _one_of([names.get(target.id, dotted), dotted])
        if names == before:
            break
    return names


class _Reader(ast.NodeVisitor):
    """One module's reading: each place it reaches into other code, in ``found``."""

    def __init__(self, file: str, bound: dict[str, str], strings: LiteralStrings | None = None) -> None:
        self.file, self.bound = file, bound
        self.strings = strings  # which names hold only strings written out (None: a text read as code)
        self.params: list[set[str]] = []  # each enclosing function's parameters
        self.method_self: list[str | None] = []  # each enclosing function's first parameter, if a method's
        self.setattr_name: list[str | None] = []  # each enclosing function's name parameter, if a __setattr__'s
        self.values: set[int] = set()  # names where a module may stand (an alias's value, an attribute's base)
        self.device_lookups: set[int] = set()  # getattr(torch, device.type) asked at once for a device call
        self.found: list[Reach] = []
        self.allowed: set[int] = set()  # nodes read as honest where they stand (``object.__setattr__(self, ...)``)
        self.constants_read: set[int] = set()
        self.called: set[int] = set()  # attribute nodes called at once (``model.modules()``)
        self.shadows: list[set[str]] = []  # each enclosing function's own names (a parameter ``optim``)
        self.table_reads: set[int] = set()  # names of tables of library objects read by an item (``T[key]``)
        self.uncalled: set[int] = set()  # the module's own functions nothing can call (``_uncalled``)
        self.quiet = 0  # inside one: a self-check tool's use (``SELF_CHECK_TOOLS``) is not charged
        self.harmless_bases: set[int] = set()  # a refused module read only for what is ``HARMLESS`` of it
        self.class_methods: dict[str, frozenset[str]] = {}  # the submission's classes' methods (``_class_methods``)
        self.classes: set[str] | None = None  # names of plain classes of its own (``_plain_classes``)
        # the package's modules by name, and this one's (a module of a submission: given by ``reaches``)
        self.trees: dict[str, ast.Module] = {}
        self.module = file.removesuffix(".py")

    def read(self, tree: ast.AST) -> list[Reach]:
        self.tree = tree
        # `C.__dict__` of a class of constants: a read-only mapping of them (``source.constant_classes``), read
        # as honest where it stands
        self.constants_read = constant_class_namespaces(tree, tree) if isinstance(tree, ast.Module) else set()
        self.allowed |= self.constants_read
        # `__all__ = [n for n in globals() if ...]`: a namespace read for its names alone hands out no object
        self.allowed |= names_only_reads(tree)
        self.functions = {n.name for n in walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        if self.classes is None:  # (a module of a submission: given, with those it imports, by ``reaches``)
            self.classes = _plain_classes(tree, self.dotted)
        self.visit(tree)
        return self.found

    def _add(self, node: ast.AST, what: str) -> None:
        if self.quiet and (what == "uses breakpoint" or what.startswith("uses ")
                           and what.split(" ")[1].split(".")[0] in SELF_CHECK_TOOLS):
            return
        self.found.append(Reach(f"{self.file}:{getattr(node, 'lineno', 0)}", what))

    def dotted(self, node: ast.AST) -> str | None:
        """The dotted path of an imported object (``np.random.seed`` -> ``numpy.random.seed``), else None."""
        if isinstance(node, ast.Name):
            if any(node.id in shadow for shadow in self.shadows):
                return None
            return self.bound.get(node.id)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and f"{node.value.id}.{node.attr}" in self.bound:
                return self.bound[f"{node.value.id}.{node.attr}"]  # a class's alias (``A.T``)
            base = self.dotted(node.value)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.NamedExpr):
            return self.dotted(node.value)
        if isinstance(node, ast.IfExp):  # ``torch.cuda if cuda else None``: one of them
            return _one_of([self.dotted(b) for b in (node.body, node.orelse) if not _no_value(b)])
        if isinstance(node, ast.BoolOp):  # ``getattr(torch, "amp", None) or torch.cuda.amp``: likewise
            return _one_of([self.dotted(v) for v in node.values if not _no_value(v)])
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and node.func.id not in self.bound and not any("getattr" in shadow for shadow in self.shadows) \
                and 2 <= len(node.args) <= 3 and not node.keywords and isinstance(node.args[1], ast.Constant) \
                and isinstance(node.args[1].value, str) and self.dotted(node.args[0]):
            # ``getattr(torch, "amp", default)``: that attribute, written out (or the default)
            found = [f"{self.dotted(node.args[0])}.{node.args[1].value}"]
            default = node.args[2] if len(node.args) == 3 else None
            return _one_of(found + ([self.dotted(default)] if default is not None and not _no_value(default) else []))
        table = _table_read(node)
        if table is not None and not any(table.id in shadow for shadow in self.shadows):
            return self.bound.get(f"{table.id}[]")  # an item of a table of library objects (``DEVICES[d]``)
        return None

    def _library_object(self, node: ast.AST) -> str | None:
        """The dotted name of what a store or a mutating call changes, where it belongs to an imported module."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Attribute):
            return self.dotted(node)
        return None

    def _changes(self, node: ast.AST, target: ast.AST, verb: str) -> None:
        dotted = self._library_object(target)
        if dotted and not _settable(dotted):
            self._add(node, f"{verb} {dotted}, an object of a library it imports")

    def _text_name(self, node: ast.AST, name: ast.AST, verb: str, own: bool = False) -> None:
        """A name given as text (a getattr's, a lookup's): written out, it must lead nowhere; built at run
        time, it may lead anywhere, except a dtype's name on torch or numpy, a name that can only hold
        strings written out (``grader.harness.literal_names``: each is read as written out), or a
        dataclass's ``f.name``."""
        strings = [name.value] if isinstance(name, ast.Constant) and isinstance(name.value, str) else \
            self.strings.of(name) if self.strings is not None else None
        if strings is not None:
            for text in strings:
                if text in NAMED or text.split(".")[0] in FORBIDDEN_IMPORTS:
                    self._add(node, f"{verb} {text!r}")
                elif text in FORMATTERS:  # `getattr(str, "format")(text, fn)`: a format whose text is not read
                    self._add(node, f"{verb} {text!r} (a format string's fields look attributes up by name; "
                                    "call .format on text written out)")
                elif text == "_log" and not own:
                    self._add(node, "asks where its callers are, maybe (a logger's _log looked up by name: what "
                                    "calls it may give it a stacklevel by position)")
        elif not self._field_name(name, own=own):
            self._add(node, f"{verb} a name built at run time")

    def _format_string(self, node: ast.Attribute) -> None:
        """``text.format(x)``: each field of the text is a path of attributes and items looked up on ``x`` by
        name as it runs (``"{0.__closure__[0].cell_contents}".format(fn)``), so the text is read here as those
        names would be: written out (or a name only ever given strings written out), its fields must lead
        nowhere; built at run time (or ``str.format(text, x)``), they may lead anywhere."""
        strings = self.strings.of(node.value) if self.strings is not None else (
            [node.value.value] if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) else None)
        if strings is None:
            self._add(node, f"formats text built at run time (.{node.attr}: a format string's fields look "
                            "attributes up by name, as getattr does); write the format string out, or use an f-string")
            return
        for text in strings:
            for part in format_fields(text):
                if part in NAMED or part in REACHING or part in MODE_PEEKS or part.split(".")[0] in FORBIDDEN_IMPORTS:
                    self._add(node, f"reads .{part} through a format string ({text[:40]!r})")

    def _field_name(self, name: ast.AST, depth: int = 0, own: bool = False) -> bool:
        """A field's name of a dataclass or a named tuple: ``f.name`` where every binding of ``f`` is a loop over
        ``dataclasses.fields(...)`` (no module of the submission binds a name of ``NAMED``; ``make_dataclass``
        is refused), or such a value (``key = f.name``); and, where the name is looked up on that same object
        (``own``: getattr(self, key)), a loop over its own field names (``for key in self.__dataclass_fields__``,
        ``self._fields``) where no module sets those tables (``_field_tables_set``): a named tuple's fields given
        as text may be any names, harmless as its own fields, not as another object's attributes."""
        if self.strings is None or depth > ROUNDS:
            return False
        if isinstance(name, ast.Name):
            loops = self.strings.loop_sources(name)
            if loops:
                return own and all(self._field_names(source) for source in loops)
            values = self.strings.assign_sources(name)
            return bool(values) and all(self._field_name(value, depth + 1, own) for value in values)
        if not (isinstance(name, ast.Attribute) and name.attr == "name" and isinstance(name.value, ast.Name)):
            return False
        sources = self.strings.loop_sources(name.value)
        return bool(sources) and all(isinstance(source, ast.Call) and self.dotted(source.func) == "dataclasses.fields"
                                     and self.strings.only_imported(source.func) for source in sources)

    def _overload_name(self, target: ast.AST, name: ast.AST) -> bool:
        """``getattr(op, name) for name in op.overloads()``, where ``op`` is an operator packet written out
        (``torch.ops.aten.mm``) or a loop over a table of such packets only (its rows, its keys, the first of
        its ``.items()``): ``overloads()`` of a packet hands back its overloads' names alone, and a packet's
        attribute by one of them is that overload. The loop must ask the same packet (the same name, bound only
        by loops) the getattr looks the name up on."""
        if self.strings is None or not isinstance(name, ast.Name):
            return False
        loops = self.strings.loop_sources(name)
        if not loops or not all(isinstance(s, ast.Call) and not s.args and not s.keywords
                                and isinstance(s.func, ast.Attribute) and s.func.attr == "overloads"
                                and ast.dump(s.func.value) == ast.dump(target) for s in loops):
            return False
        if _packet(self.dotted(target)):
            return True
        items = self.strings.loop_items(target) if isinstance(target, ast.Name) else None
        return bool(items) and all(_packet(self.dotted(item)) for item in items)

    def _field_names(self, source: ast.AST) -> bool:
        """An iterable of its own object's field names: ``self.__dataclass_fields__`` (its ``.keys()``) or a
        named tuple's ``self._fields``, also through ``type(self)``, where no module of the submission sets
        either table (a class body's ``_fields = ("__class__",)`` would name anything)."""
        if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute) and source.func.attr == "keys" \
                and not source.args and not source.keywords:
            source = source.func.value
        if not (isinstance(source, ast.Attribute) and source.attr in FIELD_TABLES):
            return False
        owner = source.value
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "type" \
                and not self.strings.module.rebinds_builtin("type") and len(owner.args) == 1 and not owner.keywords:
            owner = owner.args[0]
        return self._is_own(owner) and not _field_tables_set(tuple(self.trees.values()))

    # scopes
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for statement in node.body:
            if isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__module__"
                                                         for t in statement.targets):
                self._add(statement, "sets a class's __module__ (where it says it comes from)")
        if node.name == CLASS_SWAP:  # (any other binding of __class__: visit_Name and the rest)
            self._swaps_class(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(child, method=True)
            else:
                self.visit(child)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, method=False)

    def _defines(self, node: ast.AST) -> None:
        if getattr(node, "name", None) in (*ADDRESSED, "__getattribute__"):
            self._add(node, f"defines {node.name} (what it answers is not read: numpy takes an array's address "
                            "from one)")
        if getattr(node, "name", None) == CLASS_SWAP:
            self._add(node, "defines __class__ (its objects say they are of another class: a store on "
                            "self.__class__ then changes that class)")

    def visit_Constant(self, node: ast.Constant) -> None:
        if node.value in ADDRESSED or node.value == CLASS_SWAP:
            self._add(node, f"names {node.value!r} as text")
        elif node.value in ("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "TORCH_FORCE_WEIGHTS_ONLY_LOAD"):
            self._add(node, f"names {node.value!r} (torch.load's default, which a pickle's code would run under)")

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node, method=False)

    def _function(self, node: ast.AST, method: bool) -> None:
        self._defines(node)
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults = {a.arg: d for a, d in zip(positional[len(positional) - len(args.defaults):], args.defaults)}
        defaults.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None})
        # its parameters and the names it binds to what is no imported object shadow the module's names
        own = {a.arg for a in (*positional, *args.kwonlyargs, args.vararg, args.kwarg)
               if a and not (a.arg in defaults and self.dotted(defaults[a.arg]))}
        params = set(own)
        own |= {t.id for statement in walk(node) if isinstance(statement, (ast.Assign, ast.AnnAssign))
                and statement.value is not None and not self.dotted(statement.value)
                for t in (statement.targets if isinstance(statement, ast.Assign) else [statement.target])
                if isinstance(t, ast.Name)}
        for default in defaults.values():  # a parameter's library default: followed (_bound), not handed on
            if self.dotted(default):
                self.values.add(id(default))
            self.visit(default)
        for decorator in getattr(node, "decorator_list", ()):
            self.visit(decorator)
        for annotation in _annotations(node):
            self._read_annotation(annotation)
        self.quiet += id(node) in self.uncalled  # a self-check nothing calls: its tools are no reach there
        self.shadows.append(own)
        self.params.append(params)
        self.method_self.append(positional[0].arg if method and positional else None)
        self.setattr_name.append(positional[1].arg if method and len(positional) > 1
                                 and getattr(node, "name", None) == "__setattr__" else None)
        for statement in (node.body if isinstance(node.body, list) else [node.body]):
            self.visit(statement)
        self.shadows.pop()
        self.params.pop()
        self.method_self.pop()
        self.setattr_name.pop()
        self.quiet -= id(node) in self.uncalled

    visit_AsyncFunctionDef = visit_FunctionDef

    def _read_annotation(self, annotation: ast.AST) -> None:
        """An annotation, and every string in it read as the code ``typing.get_type_hints`` would run (a
        string that is no expression, jaxtyping's ``"batch seq"``, is text)."""
        self.visit(annotation)
        for node in walk(annotation):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                try:
                    inner = ast.parse(node.value, mode="eval")
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue
                for reach in _Reader(self.file, self.bound).read(inner):
                    self.found.append(Reach(f"{self.file}:{node.lineno}", f"{reach.what} (in an annotation's text)"))

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._changes(node, node.target, "replaces")
        self._read_annotation(node.annotation)
        for child in (node.target, node.value):
            if child is not None:
                self.visit(child)

    def _is_own(self, node: ast.AST) -> bool:
        """Whether ``node`` is the enclosing method's own object (its first parameter, ``self``)."""
        return isinstance(node, ast.Name) and bool(self.method_self) and node.id == self.method_self[-1]

    def _anchor(self, node: ast.AST, name: str) -> None:
        self._add(node, f"binds {name} (where a module's relative imports resolve: from .version import x would "
                        "then read another package's module)")

    def visit_Global(self, node: ast.Global) -> None:  # ``global __package__`` in a function, then bound there
        for name in node.names:
            if name in IMPORT_ANCHORS:
                self._anchor(node, name)
            if name == CLASS_SWAP:
                self._swaps_class(node)

    visit_Nonlocal = visit_Global

    # imports
    def visit_alias(self, node: ast.alias) -> None:  # ``import torch as __package__``
        if (node.asname or node.name.split(".")[0]) in IMPORT_ANCHORS:
            self._anchor(node, node.asname or node.name)
        if (node.asname or node.name.split(".")[0]) == CLASS_SWAP:
            self._swaps_class(node)

    def _swaps_class(self, node: ast.AST) -> None:
        """``__class__`` bound by any statement (in a class body its objects then say they are of another
        class): nothing honest binds it, so every way is refused, not only ``__class__ = ...``."""
        self._add(node, "binds __class__ (in a class body, its objects then say they are of another class: a "
                        "store on self.__class__ changes that class)")

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name == CLASS_SWAP:
            self._swaps_class(node)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.AST) -> None:  # ``case x as __class__``, ``case [*__class__]``, ``{**__class__}``
        if CLASS_SWAP in (getattr(node, "name", None), getattr(node, "rest", None)):
            self._swaps_class(node)
        self.generic_visit(node)

    visit_MatchStar = visit_MatchMapping = visit_MatchAs

    def visit_Import(self, node: ast.Import) -> None:
        self.generic_visit(node)
        for alias in node.names:
            if alias.name.split(".")[0] in FORBIDDEN_IMPORTS | RUN_AT_IMPORT or (
                    _reaching(alias.name) and not alias.asname and "." in alias.name):
                self._add(node, f"imports {alias.name}")  # (``import importlib.machinery`` binds importlib,
                # whose attribute it then is: read where used only by a name bound to it)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.generic_visit(node)
        forbidden = node.level == 0 and node.module and node.module.split(".")[0] in FORBIDDEN_IMPORTS | RUN_AT_IMPORT
        if node.level == 0 and node.module != "assignment" and any(alias.name == "*" for alias in node.names) \
                and _star_refused(node.module):
            self._add(node, f"imports * from {node.module} (what it binds is not read, or is refused)")
        for alias in node.names:
            if alias.name in UNPICKLER_ALLOWS and not forbidden:
                self._add(node, f"imports {alias.name} from {node.module}: it {ALLOWS_UNPICKLING}")
            elif forbidden or (alias.name in NAMED and f"{node.module}.{alias.name}" != "dataclasses.make_dataclass") \
                    or (node.level == 0 and (node.module or "").split(".")[0] == "einops"
                        and _reaching(f"{node.module}.{alias.name}")):  # (einops' internals: taken, compared later)
                self._add(node, f"imports {alias.name} from {node.module}")  # (make_dataclass: read where called)

    # names and attributes
    def visit_Name(self, node: ast.Name) -> None:
        if node.id == CLASS_SWAP and not isinstance(node.ctx, ast.Load):  # a walrus, a loop, a with's target too
            self._swaps_class(node)
        if id(node) in self.allowed or any(node.id in shadow for shadow in self.shadows):
            return
        items = self.bound.get(f"{node.id}[]")
        if items and (items == LIBRARY or _is_module(items)) and isinstance(node.ctx, ast.Load) \
                and id(node) not in self.table_reads:
            # a table of library objects iterated or handed on: its items go where no name follows them
            self._add(node, f"hands the library objects in {node.id} on (read them as {node.id}[key])")
        if node.id in RUNNERS and node.id not in self.bound:
            self._add(node, f"uses {node.id}")
        elif node.id in IMPORT_ANCHORS and not isinstance(node.ctx, ast.Load):
            self._anchor(node, node.id)
        elif node.id in NAMED and not isinstance(node.ctx, ast.Load):  # a dataclass field ``__globals__``, read
            self._add(node, f"binds a name {node.id!r}")              # back as ``f.name``
        elif node.id == "make_dataclass":  # fields named at run time, read back as ``f.name``
            self._add(node, "uses make_dataclass")
        elif node.id in ("getattr", "setattr", "delattr", "vars") and node.id not in self.bound:
            self._add(node, f"hands {node.id} on (a name it will look up is not read)")  # called: visit_Call
        elif node.id == "locals" and node.id not in self.bound:
            # outside a function (the module's code, a class body at its top) locals() is the module's
            # namespace, builtins and all, as globals() is; a function's own locals are what it binds, read
            # here. Handed on, it runs in whichever frame calls it
            self._add(node, "uses locals outside a function" if not self.shadows else
                      "hands locals on (the namespace it will give is not read)")
        elif node.id in MODE_PEEKS or node.id in ("__builtins__", "__loader__", "__spec__"):
            self._add(node, f"uses {node.id}")
        elif self.bound.get(node.id) and _reaching(self.bound[node.id]) and isinstance(node.ctx, ast.Load) \
                and id(node) not in self.harmless_bases:
            self._add(node, f"uses {self.bound[node.id]}")
        elif self.bound.get(node.id) and isinstance(node.ctx, ast.Load) and id(node) not in self.values \
                and (self.bound[node.id] == LIBRARY or _is_module(self.bound[node.id])):
            # a module handed to a function, put in a container or picked by a condition: where it goes is
            # not followed (``f(os)`` then ``o.mkdir = ...`` in f)
            self._add(node, f"hands the module {self.bound[node.id]} on as a value")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in IMPORT_ANCHORS - {"__name__"} and not isinstance(node.ctx, ast.Load):
            self._anchor(node, node.attr)  # (a function's __name__, set by a decorator, is its own business)
        dotted = self.dotted(node)
        if dotted in HARMLESS:  # ``multiprocessing.cpu_count()``: the module read for that alone
            self.harmless_bases.add(id(node.value))
        self.values.add(id(node.value))  # a module as the base of one of its attributes
        if isinstance(node.value, ast.Call) and node.attr in DEVICE_CALLS:
            self.device_lookups.add(id(node.value))  # getattr(torch, device.type).synchronize()
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if node.attr == "__dict__" and isinstance(node.ctx, ast.Load) and id(node) not in self.allowed:
            self._namespace_handed_on(node)
        if node.attr == "_log" and isinstance(node.ctx, ast.Load) and not self._is_own(node.value):
            call = self._parent(node)  # a logger's _log, called right here (its arguments read: visit_Call)
            if not (isinstance(call, ast.Call) and call.func is node):
                self._add(node, "asks where its callers are, maybe (a logger's _log handed on: what calls it may "
                                "give it a stacklevel by position)")
        through_class = isinstance(node.value, ast.Name) and node.attr in self.class_methods.get(node.value.id, ()) \
            and not any(node.value.id in shadow for shadow in self.shadows)
        through_type = (isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                        and node.value.func.id == "type" or isinstance(node.value, ast.Attribute)
                        and node.value.attr == "__class__") \
            and any(node.attr in methods for methods in self.class_methods.values())  # type(self).put(...)
        if (through_class or through_type) and not self._called_on_self(node):
            owner = node.value.id if through_class else ast.unparse(node.value)
            self._add(node, f"reads the method {owner}.{node.attr} through its class (called so, it may be "
                            f"handed anything as self: call it on an object, obj.{node.attr}(...))")
        if node.attr in FORMATTERS and isinstance(node.ctx, ast.Load) and not self.dotted(node.value):
            # (a library's own ``format``, ``np.lib.format``, is no string's)
            self._format_string(node)
        if id(node) in self.allowed or id(node) in self.harmless_bases:
            pass
        elif node.attr in UNPICKLER_ALLOWS:
            self._add(node, f"uses .{node.attr}: it {ALLOWS_UNPICKLING}")
        elif node.attr in REACHING or node.attr in MODE_PEEKS:
            self._add(node, f"uses .{node.attr}")
        elif (node.attr in ADDRESSED or node.attr == CLASS_SWAP) and not isinstance(node.ctx, ast.Load):
            self._add(node, f"sets .{node.attr}")  # (a real array's is read freely, and any object's class)
        elif node.attr == "__dict__" and (self.dotted(node.value) or not (
                isinstance(root, ast.Name) and (self._is_own(root) or any(root.id in p for p in self.params)))):
            self._add(node, "uses .__dict__ of a module or of what is neither its own object nor a parameter")
        elif node.attr == "modules" and id(node) not in self.called and not (dotted and _is_module(dotted)):
            self._add(node, "uses .modules without calling it (sys.modules?)")
        elif dotted and _reaching(dotted) and not (isinstance(node.value, ast.Attribute) and self.dotted(node.value)
                                                   and _reaching(self.dotted(node.value))):
            self._add(node, f"uses {dotted}")
        elif dotted and isinstance(node.ctx, ast.Load) and id(node) not in self.values \
                and id(node) not in self.called and dotted.split(".")[0] not in FORBIDDEN_IMPORTS \
                and _is_module(dotted):  # (the grader's, the tests': their import is refused already)
            # as for a module's own name (visit_Name): ``f(os.path)``, ``f(torch.nn.functional.torch)``, where a
            # parameter's ``__dict__`` or a name resolver then reads the module by names built at run time
            self._add(node, f"hands the module {dotted} on as a value")
        self.generic_visit(node)

    def _namespace_handed_on(self, node: ast.AST) -> None:
        """``vars(x)`` or ``x.__dict__`` anywhere but where it is only read (an item, a loop, ``.items()``, a
        copy, ``{**vars(x)}`` too, a call's ``**``, ``in``, text): handed to a function
        (``operator.setitem(vars(k), name, v)``), returned or kept, its names can be bound by keys built at run
        time, out of any reading's sight. (One changed in place, ``x.__dict__.update(...)``, is refused as that,
        by ``visit_Call``.)"""
        parent = self._parent(node)
        if parent is None:
            return
        grand = self._parent(parent)
        changed = isinstance(parent, ast.Attribute) and parent.attr in MUTATORS and isinstance(grand, ast.Call) \
            and grand.func is parent  # ``x.__dict__.update(...)``: refused as the change it is
        if changed or isinstance(parent, ast.Subscript) and parent.value is node and isinstance(parent.ctx, ast.Load) \
                or isinstance(parent, ast.keyword) and parent.arg is None \
                or isinstance(parent, ast.Dict) and any(v is node and k is None for k, v in zip(parent.keys,
                                                                                               parent.values)) \
                or isinstance(parent, (ast.For, ast.comprehension)) and parent.iter is node \
                or isinstance(parent, ast.Compare) and node in parent.comparators and all(  # ``k in vars(x)``
                    isinstance(op, (ast.In, ast.NotIn, ast.Is, ast.IsNot)) for op in parent.ops) \
                or isinstance(parent, ast.FormattedValue) \
                or isinstance(parent, ast.Attribute) and parent.attr in ("items", "keys", "values", "get", "copy") \
                or isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in (
                    "dict", "list", "tuple", "sorted", "len", "repr", "str", "print", "set", "frozenset") \
                or isinstance(parent, ast.Call) and self.dotted(parent.func) in (
                    "json.dumps", "json.dump", "pprint.pprint", "pprint.pformat", "copy.copy", "copy.deepcopy"):
            return
        self._add(node, "hands an object's namespace on (names bound in it are not read: copy it, dict(vars(x)))")

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self._item_of_a_table(node)
        if not isinstance(node.ctx, ast.Load) and _namespace(node.value):
            self._add(node, "binds a name in an object's namespace (set attributes by name)")
        owner = node.value.args[0] if isinstance(node.value, ast.Call) and node.value.args else \
            node.value.value if isinstance(node.value, ast.Attribute) else None
        if _namespace(node.value) and isinstance(owner, ast.Name) and self.class_methods.get(owner.id):
            self._add(node, f"reads the namespace of the class {owner.id} (a method taken from it may be handed "
                            "anything as self)")
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str) and (
                key.value.startswith("__") and key.value in NAMED | frozenset(RUNNERS)
                or key.value.split(".")[0] == "grader"):
            self._add(node, f"looks up {key.value!r}")
        elif isinstance(node.ctx, ast.Load) and _namespace(node.value):
            self._item_by_key(node, node.value, key)
        self.generic_visit(node)

    def _item_by_key(self, node: ast.AST, space: ast.AST, key: ast.AST) -> None:
        """A namespace's item is its object's attribute by a name given as text, read as getattr's name is
        (``_text_name``): str's ``format`` (``vars(p)["format"]``), a module's ``__builtins__``, anything by a
        name built at run time (``vars(m).get(name[::-1])``, where ``m`` may be any module). The object's own
        namespace (``vars(self)[name]``, ``self.__dict__.get(name)``) holds only what it stored, and a class of
        constants' its constants: any name there, but none of those written out."""
        owner = space.args[0] if isinstance(space, ast.Call) and space.args else getattr(space, "value", None)
        own = self._is_own(owner)
        constants = id(space.func if isinstance(space, ast.Call) else space) in self.constants_read
        if (own or constants) and not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return  # (a class of constants' namespace holds its constants and type's own entries)
        self._text_name(node, key, "looks up in an object's namespace", own=own)

    def _a_builtin_type(self, node: ast.AST) -> bool:
        """``str``, ``type`` and the like where the module binds no such name, or ``type(x)`` of what is not
        its own object: a type whose namespace holds methods it did not write."""
        if isinstance(node, ast.Name):
            return isinstance(getattr(builtins, node.id, None), type) and _bound_counts(self.tree)[node.id] == 0 \
                and not any(node.id in shadow for shadow in self.shadows)
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "type" \
            and len(node.args) == 1 and not self._is_own(node.args[0])

    # a module tested, not handed on: ``if backend is not None:``, ``if not backend:``
    def visit_Compare(self, node: ast.Compare) -> None:
        if all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
            self.values.update(id(n) for n in (node.left, *node.comparators))
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        self.values.add(id(node.test))
        self.generic_visit(node)

    visit_While = visit_If

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self.values.add(id(node.operand))
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.values.add(id(node.test))
        self.generic_visit(node)

    def _item_of_a_table(self, node: ast.AST) -> None:
        """``T[key]``, ``T.get(key)`` of a table of library objects: the table read as it may be; the item
        handed on (not an attribute's base, not an alias) where it may be a module, as a module's name is."""
        table = _table_read(node)
        if table is None or f"{table.id}[]" not in self.bound:
            return
        self.table_reads.add(id(table))
        dotted = self.dotted(node)
        if dotted and id(node) not in self.values and id(node) not in self.called \
                and (dotted == LIBRARY or _is_module(dotted)):
            self._add(node, f"hands the module {dotted} in {table.id} on as a value")

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:  # case object(__closure__=cells): an attribute read by its name
            if name in NAMED or name == "_log":
                self._add(node, f"matches an attribute {name!r}")
        # ``case object(flop_counter=x)`` reads that attribute of whatever is matched (a library's module), by a
        # name no attribute read of the readings sees; on an instance of a plain class of its own (no metaclass,
        # no base but its own or object: nothing that says a library's object is one), its own attributes
        own = isinstance(node.cls, ast.Name) and node.cls.id in self.classes and node.cls.id not in self.bound
        # a library's class (`case np.ndarray(ndim=2)`): its instances' attributes, by the names written here
        dotted = self.dotted(node.cls)
        library_class = dotted is not None and "." in dotted and not _is_module(dotted)
        if node.kwd_attrs and not own and not library_class:
            self._add(node, f"reads attributes through a match pattern ({'=, '.join(node.kwd_attrs)}=) on what is "
                      "no class of its own or a library's: read them as attributes")
        # ``case C(v)`` reads the attribute C.__match_args__ names, data any class may set (text built at run
        # time) on a class an ABC's __subclasshook__ may pass anything for: told only for a builtin's own
        # pattern, a library's class and the fields of a plain dataclass or NamedTuple (``match_positions``)
        by_position = match_positions({**self.trees, self.module: self.tree}, self.module, node) \
            if isinstance(self.tree, ast.Module) else None if node.patterns else ()
        if by_position is None:
            self._add(node, f"matches {ast.unparse(node.cls)}(...) by position, reading the attributes its "
                      "__match_args__ names, which the source does not tell: match a builtin (`case int(n)`), a "
                      "library's class or a plain dataclass of your own by position, or read the attributes by name")
        for name in by_position or ():  # (each field it declares: which are matched by position is not read)
            if name in NAMED:
                self._add(node, f"matches an attribute {name!r}")
        self.generic_visit(node)

    # stores into a library's objects
    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            for each in (target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]):
                self._changes(node, each, "replaces")
                if isinstance(each, ast.Attribute) and each.attr == "__module__":
                    self._add(node, "sets an object's __module__ (where it says it comes from)")
        # an alias (``o = os``, ``F = torch.nn.functional``, ``o, t = os, time``): followed (_bound); one put
        # anywhere else (``*mods, = (os, time)``, an attribute, an item) is a module handed on
        if _followed(node.targets, node.value):
            values = node.value.elts if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
            if all(isinstance(t, ast.Name) for t in node.targets):  # one name: a table's items, a branch's
                values = _display_items(node.value) or values
                values = [b for v in values for b in ((v.body, v.orelse) if isinstance(v, ast.IfExp) else
                                                      v.values if isinstance(v, ast.BoolOp) else (v,))]
                values += [v.args[2] for v in values if isinstance(v, ast.Call) and self.dotted(v) and len(v.args) == 3]
            self.values.update(id(v) for v in values if isinstance(v, (ast.Name, ast.Attribute, ast.Subscript,
                                                                         ast.Call)))
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._changes(node, node.target, "replaces")
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self._changes(node, target, "deletes")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self._item_of_a_table(node)
        func = node.func
        if self.dotted(func) == "dataclasses.make_dataclass" and _fields_written_out(node):
            self.allowed.add(id(func))  # its fields' names are read here, as a class statement's would be
        if isinstance(func, ast.Attribute):
            self.called.add(id(func))
            if func.attr == "get" and node.args and _namespace(func.value):  # ``vars(t).get("format")``
                self._item_by_key(node, func.value, node.args[0])
        # logging's calls (and _warnings.warn's): a caller's file, line and name (``**`` of a table written out
        # read as its items; one not written out, handed to a log call, may hold either). warnings.warn's
        # stacklevel never names a harness frame where it runs (``warning_frames``)
        called, args = func, node.args
        if self.dotted(func) == "functools.partial" and args:
            called, args = args[0], args[1:]
        warn = self.dotted(called)
        options = self._options(node.keywords)
        if warn == "warnings.warn":
            options = {}
        elif options is None and isinstance(func, (ast.Attribute, ast.Name)) \
                and (func.attr if isinstance(func, ast.Attribute) else func.id) in WARNS_OR_LOGS:
            self._add(node, "asks where its callers are, maybe (** of options not written out, which may hold "
                            "stacklevel=)")
        written = options if options is not None else {k.arg: k.value for k in node.keywords if k.arg is not None}
        for name, option in written.items():  # (any call's: a helper of one's own may hand it to a log call)
            if name == "stacklevel" and not _level_one(option) or name == "stack_info" and not _no_stack(option):
                self._add(node, f"asks where its callers are ({name}=)")
        # a logger's own ``_log(level, msg, args, exc_info, extra, stack_info, stacklevel)``, which its public
        # calls hand their options to: given by position (or in a * of arguments)
        if isinstance(called, ast.Attribute) and called.attr == "_log":
            if any(isinstance(arg, ast.Starred) for arg in args):
                self._add(node, "asks where its callers are, maybe (a * of arguments to a logger's _log, which "
                                "may hold its stack_info or stacklevel)")
            elif len(args) > 7 or len(args) > 5 and not _no_stack(args[5]) \
                    or len(args) > 6 and not _level_one(args[6]):
                self._add(node, "asks where its callers are (a logger's _log given stack_info or stacklevel)")
        # the same given by position to the C twin of warnings.warn (which no cut reaches), called or partly
        # applied; a * of arguments may hold it too
        if warn == "_warnings.warn":
            if any(isinstance(arg, ast.Starred) for arg in args):
                self._add(node, "asks where its callers are, maybe (a * of arguments, which may hold warn's third, "
                                "its stacklevel)")
            elif len(args) >= 3 and not _level_one(args[2]):
                self._add(node, "asks where its callers are (a stacklevel, warn's third argument)")
        builtin = isinstance(func, ast.Name) and func.id not in self.bound \
            and not any(func.id in shadow for shadow in self.shadows)
        if builtin and func.id in ("getattr", "setattr", "delattr", "hasattr") and len(node.args) >= 2:
            self.allowed.add(id(func))
            target, name = node.args[0], node.args[1]
            library = self.dotted(target)
            self.values.add(id(target))  # read here (its name, its library's)
            device = func.id in ("getattr", "hasattr") and library == "torch" and (
                id(node) in self.device_lookups or func.id == "hasattr" or self._device_module(node))
            if device and len(node.args) > 2:
                self.values.add(id(node.args[2]))  # a default module (``torch.cpu``), asked the same calls
            if self._is_own(target) and _plain_prefix(name) or device or self._overload_name(target, name) or (
                    library and library.split(".")[0] in ("torch", "numpy") and _dtype_name(name)):
                pass  # (its own attributes by a name read here or one that starts with a letter written out,
                # ``f"layer{i}"``: a method called through its class may be handed anything as ``self``)
            else:
                self._text_name(node, name, f"uses {func.id} of", own=self._is_own(target))
            if isinstance(target, ast.Name) and isinstance(name, ast.Constant) \
                    and name.value in self.class_methods.get(target.id, ()):
                self._add(node, f"reads the method {target.id}.{name.value} through its class (called so, it may be "
                                "handed anything as self)")
            if func.id in ("setattr", "delattr") and library and not (
                    isinstance(name, ast.Constant) and _settable(f"{library}.{name.value}")):
                self._add(node, f"uses {func.id} on {library}, a library it imports")
        elif builtin and func.id == "locals" and self.shadows:  # a function's own names: what it binds
            self.allowed.add(id(func))
        elif builtin and func.id == "vars" and len(node.args) == 1:
            self.allowed.add(id(func))
            if id(func) not in self.constants_read:  # (a class of constants' mapping binds nothing, kept or not)
                self._namespace_handed_on(node)
            target = node.args[0]
            if self.dotted(target):
                self._add(node, f"uses vars of {self.dotted(target)}")
            elif self._a_builtin_type(target):
                # (``vars(str)["format"]``: a method looked up by text, which no reading sees called)
                self._add(node, f"uses vars of {ast.unparse(target)[:40]}, a type it did not write (its methods "
                                "come out of it by text: call them by name)")
        elif self.dotted(func) in TEXT_RUNNERS:
            self._read_text(node)
        elif self.dotted(func) in ("operator.attrgetter", "operator.methodcaller"):  # names given as text
            for name in node.args[:1] if self.dotted(func) == "operator.methodcaller" else node.args:
                for part in ([ast.Constant(p) for p in name.value.split(".")]
                             if isinstance(name, ast.Constant) and isinstance(name.value, str) else [name]):
                    self._text_name(node, part, f"uses {self.dotted(func)} of")
        elif self._makes_a_class(node):
            self._add(node, "makes a class at run time (the names of its attributes are not read)")
        elif self.dotted(func) in ("types.SimpleNamespace", "argparse.Namespace") and any(
                k.arg is None for k in node.keywords):
            self._add(node, f"gives {self.dotted(func)} attributes by names built at run time (**)")
        elif isinstance(func, ast.Attribute) and func.attr in MUTATORS and _namespace(func.value):
            self._add(node, f"calls .{func.attr} on an object's namespace (names bound through it are not "
                            "followed, even where written out)")
        elif isinstance(func, ast.Attribute) and func.attr in MUTATORS:
            self._changes(node, func.value, f"calls .{func.attr} on")
        elif isinstance(func, ast.Attribute) and func.attr in OWN_SETTERS and (
                (node.args and self._is_own(node.args[0]) and isinstance(func.value, ast.Name)
                 and func.value.id == "object")
                or (isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name)
                    and func.value.func.id == "super")):
            self.allowed.add(id(func))
            named = node.args[1] if isinstance(func.value, ast.Name) and len(node.args) > 1 else \
                node.args[0] if not isinstance(func.value, ast.Name) and node.args else None
            forwarded = isinstance(named, ast.Name) and self.setattr_name and named.id == self.setattr_name[-1]
            if named is not None and not _plain_prefix(named) and not forwarded:  # its own attribute, by a name
                self._text_name(node, named, f"uses {func.attr} of")  # read here (or its __setattr__'s own)
        self._unpickles(node)
        self.generic_visit(node)

    def _makes_a_class(self, node: ast.Call) -> bool:
        """A class made by calling a metaclass with a namespace not written out: ``type(name, bases, ns)``,
        through any name for type (``type(int)(...)``, ``abc.ABCMeta``, ``X.__new__``), ``types.new_class``, or
        enum's functional API given names not written out (``Enum("E", names)``)."""
        func, dotted = node.func, self.dotted(node.func) or ""
        if dotted in ("types.new_class", "types.prepare_class"):
            return True
        if dotted.split(".")[0] == "enum" and len(node.args) >= 2:
            return not _written_out(node.args[1])
        args = node.args[1:] if isinstance(func, ast.Attribute) and func.attr == "__new__" else node.args
        metaclass = isinstance(func, ast.Call) and isinstance(func.func, ast.Name) and func.func.id == "type" \
            or isinstance(func, ast.Name) and func.id == "type" or dotted.endswith(("Meta", "Type", ".type")) \
            or isinstance(func, ast.Attribute) and func.attr in ("__new__", "__call__", "__prepare__", "__class__")
        return metaclass and len(args) >= 3 and not _written_out(args[2], keys_only=True)

    def _unpickles(self, node: ast.Call) -> None:
        """A loader that may unpickle what it is handed: numpy's told ``allow_pickle`` (not False written
        out), torch's told ``weights_only=False`` or given a pickle module, called directly, through
        ``functools.partial`` or ``__call__``, with options written out (``**`` of a table written out is
        read)."""
        args, dotted = list(node.args), self.dotted(node.func) or ""
        if dotted == "functools.partial" and args:
            dotted, args = self.dotted(args[0]) or "", args[1:]
        dotted = dotted.removesuffix(".__call__")
        last = dotted.split(".")[-1]
        numpy = dotted.startswith("numpy.") and last in ("load", "read_array", "NpzFile")
        torch = dotted.startswith("torch.") and last == "load" and not dotted.startswith("torch.jit")
        if not (numpy or torch):
            return
        options = self._options(node.keywords)
        if options is None:
            self._add(node, f"calls {dotted} with **options not written out (they may let it run a pickle's code)")
            return
        if numpy:
            at = {"load": 2, "read_array": 1, "NpzFile": 2}[last]  # allow_pickle's place
            allow = options.get("allow_pickle", args[at] if len(args) > at else None)
            if allow is not None and not self._always(allow, (False,)):
                self._add(node, f"calls {dotted} with allow_pickle{self._not_written(allow, False)} (a pickle's "
                                "code would run)")
        elif "pickle_module" in options or len(args) >= 3:
            self._add(node, f"calls {dotted} with a pickle module of its own")
        elif "weights_only" in options and not self._always(options["weights_only"], (True, None)):
            said = self._not_written(options["weights_only"], True) or "=False"
            self._add(node, f"calls {dotted} with weights_only{said} (a checkpoint's pickle would run its code, "
                            "and so would any bytes it is handed: load with weights_only=True)")

    def _always(self, value: ast.AST, allowed: tuple) -> bool:
        """Whether ``value`` is one of the constants ``allowed``, written out there or in a name bound only to
        such constants (``WEIGHTS_ONLY = True``, which no code of the submission can rebind)."""
        found = [value] if isinstance(value, ast.Constant) else \
            self.strings._values(value) if self.strings is not None else None
        return bool(found) and all(isinstance(v, ast.Constant) and any(v.value is a for a in allowed) for v in found)

    @staticmethod
    def _not_written(value: ast.AST, wanted: bool) -> str:
        """How a refusal says an option that is not a constant: what it was given, which may be anything."""
        if isinstance(value, ast.Constant):
            return ""
        return f"={ast.unparse(value)[:60]}, which may be {not wanted} when it runs"

    def _options(self, keywords: list[ast.keyword]) -> dict[str, ast.AST] | None:
        """A call's keywords by name, a ``**`` of a dict written out (in place, a table only read, a dict bound
        once and only ever handed on by ``**``, or ``dataclasses.asdict`` of a plain dataclass's one instance)
        read as its items; None where one is not written out."""
        options: dict[str, ast.AST] = {}
        for keyword in keywords:
            if keyword.arg is not None:
                options[keyword.arg] = keyword.value
                continue
            table = keyword.value if isinstance(keyword.value, ast.Dict) else \
                (self.strings._table(keyword.value) or self.strings.as_dict(keyword.value)
                 or self.strings.splatted(keyword.value)) if self.strings is not None else None
            if not isinstance(table, ast.Dict) or not all(isinstance(k, ast.Constant) and isinstance(k.value, str)
                                                          for k in table.keys):
                return None
            options.update({k.value: v for k, v in zip(table.keys, table.values)})
        return options

    def _parent(self, node: ast.AST) -> ast.AST | None:
        """The node that holds ``node`` (None for a text read as code: no scopes were read for it)."""
        return self.strings.module.parent.get(id(node)) if self.strings is not None else None

    def _called_on_self(self, node: ast.Attribute) -> bool:
        """``Base.method(self, ...)`` in a method: a class's method called on the enclosing method's own object."""
        call = self._parent(node)
        return isinstance(call, ast.Call) and call.func is node and bool(call.args) and self._is_own(call.args[0])

    def _device_module(self, call: ast.Call) -> bool:
        """``backend = getattr(torch, device.type[, default])`` where ``backend`` is bound once and only asked a
        device's calls (``backend.synchronize()``), tested (``is None``, ``if backend``, ``hasattr(backend,
        "synchronize")``): whatever module of torch's it is, nothing of it is handed on."""
        module = self.strings.module if self.strings is not None else None
        target = self._parent(call)
        if not (isinstance(target, ast.Assign) and len(target.targets) == 1
                and isinstance(target.targets[0], ast.Name)):
            return False
        name = target.targets[0]
        owner = module.stores.get(id(name))
        key = (id(owner), name.id)
        if not isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) or len(module.bindings.get(key, [])) != 1 \
                or name.id in module.declared.get(id(owner), {}):
            return False  # (a module's name is another module's to read: ``vars(roofline.backend)``)
        loads = _loads(module, key)
        return bool(loads) and all(self._device_use(load, module) for load in loads)

    def _device_use(self, load: ast.Name, module) -> bool:
        parent = module.parent.get(id(load))
        if isinstance(parent, ast.Attribute) and parent.attr in DEVICE_CALLS:
            call = module.parent.get(id(parent))
            return isinstance(call, ast.Call) and call.func is parent
        if isinstance(parent, ast.Compare):
            return all(isinstance(op, (ast.Is, ast.IsNot)) for op in parent.ops)
        if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
            return parent.test is load
        if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not):
            return True
        if isinstance(parent, ast.BoolOp):  # ``backend is not None and backend.synchronize()``: tested
            return isinstance(module.parent.get(id(parent)), (ast.If, ast.While, ast.IfExp, ast.Assert, ast.Expr))
        # hasattr(backend, "synchronize"), getattr(backend, "synchronize", None): a device's call, by its name
        return isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id in (
            "hasattr", "getattr") and parent.args[:1] == [load] and 2 <= len(parent.args) <= 3 \
            and isinstance(parent.args[1], ast.Constant) and parent.args[1].value in DEVICE_CALLS

    def _read_text(self, call: ast.Call) -> None:
        """A timer's statement and setup, given as text: read as code where written out, refused where built."""
        texts = [*call.args[:2], *(k.value for k in call.keywords if k.arg in ("stmt", "setup"))]
        for keyword in call.keywords:  # globals=globals(): the names the text reads, which is read here
            if keyword.arg == "globals" and isinstance(keyword.value, ast.Call) \
                    and isinstance(keyword.value.func, ast.Name) and keyword.value.func.id in ("globals", "locals"):
                self.allowed.add(id(keyword.value.func))
        for text in texts:
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                try:
                    inner = ast.parse(text.value)
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue  # the timer fails to compile it too
                for reach in _Reader(self.file, {**self.bound, **_bound(inner)}).read(inner):
                    self._add(call, f"{reach.what} (in the text the timer runs)")
            elif not self._callable(text):
                self._add(call, "hands a timer what may be text built at run time")

    def _callable(self, node: ast.AST) -> bool:
        """A timer's statement that is code, not text: a lambda, a function defined here, a library's
        function, ``functools.partial`` of one."""
        if isinstance(node, ast.Lambda):
            return True
        if isinstance(node, ast.Name):
            return node.id in self.functions
        if isinstance(node, ast.Call):
            return self.dotted(node.func) == "functools.partial"
        return self.dotted(node) is not None
