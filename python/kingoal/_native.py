"""The ctypes binding of kingoal's Go library (frontend/pylib, built c-shared).

The library is found, in order: $KINGOAL_LIB; libkingoal.so (.dylib) inside this package (an
installed wheel, or a development build); it is loaded once, on first use. One Go runtime
serves the process: do not fork after loading (use multiprocessing's "spawn" or
"forkserver").
"""
import ctypes
import json
import math
import numbers
import os
import sys
import threading

import numpy as np

OBS_SIZE = 36
NUM_ACTIONS = 121

_LIBNAME = "libkingoal.dylib" if sys.platform == "darwin" else "libkingoal.so"
_lock = threading.Lock()
_lib = None

_u64 = ctypes.c_uint64
_ptr = ctypes.c_void_p
_str = ctypes.c_char_p
_int = ctypes.c_int
_ERRSIZE = 4096


def library_path():
    """Where the native library is looked for (it may not exist yet)."""
    env = os.environ.get("KINGOAL_LIB")
    if env:
        return env
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), _LIBNAME)


def lib():
    """The loaded library (loaded on first call)."""
    global _lib
    with _lock:
        if _lib is None:
            path = library_path()
            if not os.path.exists(path):
                raise ImportError(
                    f"kingoal's native library is missing ({path}). Install the package with "
                    "`pip install --no-build-isolation ./python` (needs Go), or build it for development: "
                    "`go build -buildmode=c-shared -o python/kingoal/libkingoal.so ./frontend/pylib`, "
                    "or point KINGOAL_LIB at a built library.")
            L = ctypes.CDLL(path)
            sigs = {
                "kg_env_new": (_int, [_str, _ptr, _ptr, _int]),
                "kg_env_reset": (_int, [_u64, _u64, _ptr, _ptr, _ptr, _int]),
                "kg_env_step": (_int, [_u64, ctypes.c_int64, _ptr, _ptr, _ptr, _ptr, _ptr, _int]),
                "kg_vec_new": (_int, [_str, _int, _ptr, _ptr, _int]),
                "kg_vec_reset": (_int, [_u64, _u64, _ptr, _ptr, _ptr, _int]),
                "kg_vec_step": (_int, [_u64, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _int]),
                "kg_par_new": (_int, [_str, _ptr, _ptr, _int]),
                "kg_par_reset": (_int, [_u64, _u64, _ptr, _ptr, _ptr, _ptr, _int]),
                "kg_par_step": (_int, [_u64, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _ptr, _int]),
                "kg_render": (_int, [_u64, _ptr, _int]),
                "kg_history": (_int, [_u64, ctypes.POINTER(ctypes.c_void_p), _ptr, _int]),
                "kg_replay": (_int, [_u64, _str, _ptr, _int]),
                "kg_match": (_int, [_u64, _ptr, ctypes.c_int64, _ptr, _int]),
                "kg_frame": (_int, [_u64, _ptr, ctypes.c_int64, _ptr, _int]),
                "kg_table_open": (_int, [_str, _ptr, ctypes.POINTER(ctypes.c_void_p), _ptr, _int]),
                "kg_table_copy": (_int, [_u64, _int, _int, _ptr, ctypes.c_int64, _ptr, _int]),
                "kg_policy_request": (_int, [_u64, _int, _ptr, _ptr, ctypes.c_int64, _ptr, _ptr, _ptr, _int]),
                "kg_policy_answer": (_int, [_u64, _ptr, _int, _str, _ptr, _int]),
                "kg_live_request": (_int, [_u64, _int, _ptr, _ptr, _ptr, _ptr, ctypes.c_int64, _ptr, _ptr, _ptr, _int]),
                "kg_live_answer": (_int, [_u64, _ptr, _int, _str, _ptr, _int]),
                "kg_live_exchange": (_int, [_u64, _ptr, _int, _int, _ptr, _ptr, _ptr, _ptr, ctypes.c_int64, _ptr, _ptr, _ptr, _int]),
                "kg_close": (None, [_u64]),
                "kg_version": (None, [_ptr, _int]),
                "kg_call": (_int, [_str, _str, ctypes.POINTER(ctypes.c_void_p)]),
                "kg_free": (None, [_ptr]),
            }
            for name, (res, args) in sigs.items():
                f = getattr(L, name)
                f.restype, f.argtypes = res, args
            _lib = L
        return _lib


class Error(RuntimeError):
    """An internal failure of the native library (a bug: please report it)."""


def _raise(rc, msg):
    msg = msg.decode("utf-8", "replace") if isinstance(msg, bytes) else msg
    if rc == 1:
        raise ValueError(msg)
    if rc == 2:
        raise RuntimeError(msg)
    raise Error(msg)


class ErrBuf:
    """A reusable buffer for the one-line error messages of the native calls."""

    def __init__(self):
        self.buf = ctypes.create_string_buffer(_ERRSIZE)
        self.ptr = ctypes.cast(self.buf, _ptr)

    def check(self, rc):
        if rc != 0:
            _raise(rc, self.buf.value)


def whole(name, value, lo, hi):
    """value as an int if it is a whole number in lo..hi (NumPy integers too), else a
    ValueError naming it: ctypes would wrap 2**64 + 7 to 7 without a word."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        if not (isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer)):
            raise ValueError(f"{name}={value!r}: want a whole number in {lo}..{hi}")
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError(f"{name}={v}: want a whole number in {lo}..{hi}")
    return v


SEED_MAX = 2**64 - 1
MAX_ENVS = 1 << 20  # the native library's bound on a vector


class Exclusive:
    """One thread at a time in an environment's calls: a second thread's call raises
    RuntimeError instead of corrupting the match (environments are not thread-safe; make one
    per thread). The native library refuses the same at its boundary."""

    __slots__ = ("_lock",)

    def __init__(self):
        self._lock = threading.Lock()

    def __enter__(self):
        if not self._lock.acquire(blocking=False):
            raise RuntimeError("kingoal: this environment is in use by another thread "
                               "(environments are not thread-safe: make one per thread)")

    def __exit__(self, *exc):
        self._lock.release()


def addr(a):
    """The address of a NumPy array's data (it must stay alive during the call)."""
    return a.ctypes.data


def call(name, **args):
    """Calls a JSON library function of the native library (see frontend/pylib/calls.go)."""
    out = ctypes.c_void_p()
    try:
        text = json.dumps(args, allow_nan=False)  # Go's JSON has no NaN: say so here, in Python's words
    except ValueError as e:
        raise ValueError(f"{name}: {e}: NaN and infinity are not values this call takes") from None
    rc = lib().kg_call(name.encode(), text.encode(), ctypes.byref(out))
    try:
        text = ctypes.string_at(out.value).decode()
    finally:
        lib().kg_free(out)
    result = json.loads(text)
    if rc != 0:
        _raise(rc, result["error"])
    return result


def gib(max_gib):
    """max_gib as the float the library takes, or a ValueError: a number of GiB > 0."""
    if isinstance(max_gib, bool) or not isinstance(max_gib, numbers.Real) or not math.isfinite(max_gib) or max_gib <= 0:
        raise ValueError(f"max_gib={max_gib!r}: want a finite number of GiB > 0")
    return float(max_gib)


def version():
    """The version of the native library (the Go code's release and revision)."""
    buf = ctypes.create_string_buffer(256)
    lib().kg_version(ctypes.cast(buf, _ptr), 256)
    return buf.value.decode()


ILLEGAL_ACTIONS = ("raise", "keep")


def check_illegal_action(illegal_action):
    """illegal_action, or a ValueError naming the choices."""
    if illegal_action not in ILLEGAL_ACTIONS:
        raise ValueError(f"illegal_action={illegal_action!r}: want 'raise' (the default) or 'keep'")
    return illegal_action


def config_json(rules, **fields):
    """The JSON the native constructors take: the rule knobs and the other options."""
    return json.dumps({"rules": rules, **fields}).encode()


def answer(obj, f):
    """The JSON text a native call f(handle, &out, err…) answers about obj's environment."""
    out, e = ctypes.c_void_p(), obj._err
    e.check(f(obj._h, ctypes.byref(out), e.ptr, _ERRSIZE))
    try:
        return ctypes.string_at(out.value).decode()
    finally:
        lib().kg_free(out)


MATCH_KEYS = ("goals", "penalties", "winner", "result", "extra_time", "shootout", "periods")
_WINNERS = np.array(["home", "away", None], object)  # indexed by the native code (−1: a draw)


class Matches:
    """Reads the finished matches of an environment (n of them for a vector) into a buffer
    of its own, int64[n, 9] (frontend/pylib/result.go): asked at every episode's end, so the
    buffer and its address are made once."""

    __slots__ = ("buf", "_ptr")

    def __init__(self, n=1):
        self.buf = np.zeros((n, 9), np.int64)
        self._ptr = addr(self.buf)

    def read(self, obj):
        obj._err.check(lib().kg_match(obj._h, self._ptr, self.buf.size, obj._err.ptr, _ERRSIZE))
        return self.buf


def match_info(fields):
    """One finished match as the terminal info gives it."""
    g_home, g_away, p_home, p_away, winner, result, extra, shootout, periods = fields.tolist()
    return {"goals": (g_home, g_away), "penalties": (p_home, p_away), "winner": _WINNERS[winner], "result": result,
            "extra_time": extra == 1, "shootout": shootout == 1, "periods": periods}


def match_infos(fields, done):
    """Gymnasium's vector form of the finished matches: each key an array over the
    environments, with "_key" saying which hold one (done)."""
    f = np.where(done[:, None], fields, 0)
    out = {"goals": f[:, 0:2], "penalties": f[:, 2:4], "winner": np.where(done, _WINNERS[f[:, 4]], None),
           "result": f[:, 5], "extra_time": f[:, 6] == 1, "shootout": f[:, 7] == 1, "periods": f[:, 8]}
    out.update({"_" + k: done.copy() for k in MATCH_KEYS})
    return out


_frame_shape = None


def frame(obj):
    """The picture of obj's match now: uint8[H, W, 3] (render_mode="rgb_array")."""
    global _frame_shape
    if _frame_shape is None:
        _frame_shape = tuple(call("frame_shape"))
    out = np.empty(_frame_shape, np.uint8)
    obj._err.check(lib().kg_frame(obj._h, addr(out), out.size, obj._err.ptr, _ERRSIZE))
    return out


# What an environment holds of its native handle: remade by __init__ on unpickling, never copied.
_HANDLE_FIELDS = frozenset({"_h", "_err", "_p", "_p2", "_one_thread", "_matches"})


class Copyable:
    """pickle and copy.deepcopy for an environment over a native handle. The copy is made as
    the original was (its constructor's arguments, kept in self._init), then the native
    episode is replayed into it from its history — the seed and the actions since reset, a
    few hundred bytes — and the Python fields are copied over: the copy continues the same
    match from the same state, with the same dice and random streams to come."""

    def __getstate__(self):
        if not getattr(self, "_h", 0):
            raise ValueError("kingoal: a closed environment cannot be pickled or copied")
        with self._one_thread:
            history = answer(self, lib().kg_history)
            state = {k: v for k, v in self.__dict__.items() if k not in _HANDLE_FIELDS}
        state["_native_history"] = history
        return state

    def __setstate__(self, state):
        state = dict(state)
        history = state.pop("_native_history")
        type(self).__init__(self, **state["_init"])
        e = self._err
        e.check(lib().kg_replay(self._h, history.encode(), e.ptr, _ERRSIZE))
        for k, v in state.items():
            mine = self.__dict__.get(k)
            if isinstance(mine, np.ndarray) and isinstance(v, np.ndarray) and mine.shape == v.shape and mine.dtype == v.dtype:
                mine[...] = v  # the native calls write into this array: keep its address
            else:
                self.__dict__[k] = v


def close(obj):
    """Closes obj's native handle, once: 0 is never a live handle, so later calls say
    "closed" and closing again does nothing."""
    h, obj._h = getattr(obj, "_h", 0), 0
    if h:
        lib().kg_close(h)
