"""Fails on what must not be committed: an executable or object file (by its magic bytes) or
any file over 1 MiB. Run by .ci/run on `git ls-files`; small golden files stay allowed."""
import subprocess
import sys

MAGIC = {b"\x7fELF": "ELF", b"MZ": "PE/Windows", b"\xcf\xfa\xed\xfe": "Mach-O", b"\xce\xfa\xed\xfe": "Mach-O",
         b"\xca\xfe\xba\xbe": "Mach-O universal", b"\x00asm": "WebAssembly", b"!<arch>": "ar archive"}
LIMIT = 1 << 20

bad = []
for path in subprocess.run(["git", "ls-files", "-z"], check=True, capture_output=True).stdout.decode().split("\0"):
    if not path:
        continue
    with open(path, "rb") as f:
        head = f.read(8)
        f.seek(0, 2)
        size = f.tell()
    kinds = [k for m, k in MAGIC.items() if head.startswith(m)]
    if kinds and not (kinds == ["PE/Windows"] and size < 1024):  # "MZ" may open a tiny text file
        bad.append(f"{path}: a committed binary ({kinds[0]}, {size} bytes)")
    elif size > LIMIT:
        bad.append(f"{path}: {size} bytes, over the {LIMIT >> 20} MiB a committed file may have")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
print("no binaries, nothing over 1 MiB")
