// Command native is the c-shared library behind the Python package kingoal
// (go build -buildmode=c-shared -o libkingoal.so ./frontend/pylib). It wraps env.Env,
// env.VecEnv and env.ParallelEnv, the solver's odds and equilibrium, and the Parquet
// readers, for ctypes.
//
// The ABI follows EnvPool's shape: one call per batch, every buffer (observations
// float32[N,36], masks int8[N,121], rewards float64[N], flags int8[N], actions int64[N])
// allocated and owned by Python; Go writes into them during the call and keeps no pointer
// (the cgo rules). Environments are opaque uint64 handles; closing one twice is fine.
// Functions return 0 on success, or an error class — 1 bad input (Python's ValueError:
// an illegal action, a bad knob or spec), 2 wrong state (RuntimeError: step before reset or
// after the end), 3 an internal failure (a recovered panic: no Go panic crosses the
// boundary) — with a one-line message in the caller's buffer. JSON calls return a string
// allocated with C.malloc, freed by kg_free.
//
// One Go runtime per process: load the library once; fork after loading is unsafe (use the
// spawn or forkserver start methods for multiprocessing).
package main
