#!/usr/bin/env python3
"""Where a callgrind dump's instructions went, per biometric sign-in.

Usage: callgrind_breakdown.py DUMP SIGN_INS [--top N]

Prints (1) every instruction by the library or module of the function that executed it (self
cost: each instruction counted once), (2) the inclusive cost of named parts of the server's work
(these overlap the first table and each other where one calls another), and with --top the N
functions that executed most themselves. Reads the format valgrind's callgrind writes
(`callgrind_control -d`, as `bioauth-dev bench --instructions` does); demangles with
`swift demangle`.
"""
import collections
import os
import re
import subprocess
import sys

# Library or module -> the part of the work it stands for.
CATEGORIES = [
    ("PostgreSQL client (PostgresNIO, PostgresKit, SQLKit)", r"^(PostgresNIO|PostgresKit|SQLKit|_ConnectionPoolModule|ConnectionPoolModule)$"),
    ("HTTP (Hummingbird, NIOHTTP1, HTTPTypes)", r"^(Hummingbird.*|NIOHTTP1|HTTPTypes|NIOHTTPTypes.*|CNIOLLHTTP|llhttp)$"),
    ("SwiftNIO (event loops, buffers, sockets)", r"^(NIOCore|NIOPosix|NIOConcurrencyHelpers|_NIO.*|NIOEmbedded|NIOExtras|NIOSSL|CNIO.*)$"),
    ("crypto (swift-crypto, BoringSSL)", r"^(Crypto|_CryptoExtras|CCryptoBoringSSL.*|CryptoBoringWrapper)$"),
    ("SQLite (and the server binary's other C code)", r"^(SQLite|sqlite3|CSQLite|C)$"),
    ("BioAuth's own code", r"^(BioAuth.*)$"),
    ("Foundation (JSON, dates, strings)", r"^(Foundation.*|libFoundation.*|_FoundationCShims|FoundationEssentials|FoundationInternationalization)$"),
    ("Swift concurrency runtime", r"^(swift-concurrency|libswift_Concurrency)$"),
    ("Swift runtime and standard library (retain/release, allocation, generics)", r"^(Swift|swift-runtime|libswiftCore|_StringProcessing|Synchronization)$"),
    ("libc (malloc, memcpy, system calls)", r"^(libc|libm|ld-linux.*)$"),
    ("libdispatch", r"^(libdispatch)$"),
    ("logging and metrics", r"^(Logging|Metrics|CoreMetrics|Prometheus)$"),
]

# Named parts of the work: inclusive cost of functions whose demangled name matches.
PARTS = [
    ("the completion statement's bindings (SignInCompletion…bindings, NamedSQL)", r"SignInCompletionStatement\.bindings|NamedSQL\.values"),
    ("the challenge: issued and checked (AuthenticationChallenge, its HMACs)", r"AuthenticationChallenge\.(issue|verify)"),
    ("JSON encoding and decoding", r"JSONEncoder\.encode|JSONDecoder\.decode|WireJSON|HandWritten"),
    ("P-256 signature verification", r"isValidSignature"),
    ("SQLite statements (sqlite3_step)", r"sqlite3_step$"),
]


def parse(path):
    """Self cost per (object, function) and call costs per (caller, callee)."""
    names = {"ob": {}, "fn": {}}
    self_cost = collections.Counter()
    calls = collections.Counter()
    ob = fn = cob = cfn = None
    pending_call = False

    def name(kind, value):
        m = re.match(r"\((\d+)\)(?: (.*))?$", value)
        if not m:
            return value
        if m.group(2) is not None:
            names[kind][m.group(1)] = m.group(2)
        return names[kind].get(m.group(1), value)

    with open(path, encoding="utf-8", errors="replace") as dump:
        for line in dump:
            line = line.rstrip("\n")
            if not line or line[0] == "#":
                continue
            if line[0].isdigit() or line[0] in "+-*":
                cost = int(line.split()[-1])
                if pending_call:
                    callee = (cob or ob, cfn)
                    if callee != (ob, fn):
                        calls[((ob, fn), callee)] += cost
                    pending_call = False
                    cob = None
                else:
                    self_cost[(ob, fn)] += cost
                continue
            key, _, value = line.partition("=")
            if key == "ob":
                ob = name("ob", value)
            elif key == "fn":
                fn = name("fn", value)
                cob = None
            elif key == "cob":
                cob = name("ob", value)
            elif key == "cfn":
                cfn = name("fn", value)
            elif key == "calls":
                pending_call = True
    return self_cost, calls


def demangle(symbols):
    symbols = list(symbols)
    try:
        out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(symbols), capture_output=True, text=True, check=True).stdout
        lines = out.split("\n")
        if len(lines) >= len(symbols):
            return dict(zip(symbols, lines))
    except (OSError, subprocess.CalledProcessError):
        pass
    return {s: s for s in symbols}


def module(ob, fn):
    base = os.path.basename(ob or "")
    m = re.match(r"_?\$s(\d+)([A-Za-z_][A-Za-z0-9_]*)", fn)
    if m:
        return m.group(2)[: int(m.group(1))]
    if re.match(r"_?\$s", fn):
        return "Swift"
    if re.match(r"_*(CCryptoBoringSSL|CNIOBoringSSL|ecp_nistz256|sha256_|sha512_|aes_|gcm_|bn_|ec_|digest_to_scalar|beeu_)", fn):
        return "CCryptoBoringSSL"
    if re.match(r"(sqlite3|sqlite_nio_)", fn):
        return "sqlite3"
    if re.match(r"swift_(task|job|continuation|asyncLet|taskGroup|defaultActor|Concurrency)", fn) or "Concurrency" in base:
        return "swift-concurrency"
    if re.match(r"_*swift_|objectdestroy|0x", fn) or "libswiftCore" in base:
        return "swift-runtime"
    if fn.startswith("llhttp") or fn.startswith("c_nio_llhttp"):
        return "llhttp"
    for lib in ("libc", "libm", "ld-linux", "libdispatch", "libFoundation"):
        if base.startswith(lib):
            return lib
    if base.startswith("bioauth"):
        return "C"  # static C functions of the server binary: SQLite's, on SQLite
    return base or "?"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, sign_ins = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 0
    self_cost, calls = parse(path)
    total = sum(self_cost.values())
    per = lambda cost: cost / sign_ins / 1000
    # The dump's summary counts the instructions run; its cost lines (the tables below) also file
    # about 1.4 M under the functions running when the count began, whatever the sign-ins.
    with open(path, encoding="utf-8", errors="replace") as dump:
        summary = next((int(line.split()[-1]) for line in dump if line.startswith("summary:")), total)
    print(f"{per(summary):.0f} k instructions per sign-in ({summary} over {sign_ins} sign-ins; the tables add up to {per(total):.0f} k)")

    by_category = collections.Counter()
    for (ob, fn), cost in self_cost.items():
        mod = module(ob, fn or "")
        label = next((c for c, pattern in CATEGORIES if re.match(pattern, mod)), f"other ({mod})")
        by_category[label] += cost
    print("by library (self cost, adds up to the tables' total):")
    for label, cost in by_category.most_common():
        if per(cost) >= 0.5:
            print(f"  {per(cost):7.1f} k  {100 * cost / total:4.1f}%  {label}")

    functions = {fn for (_, fn) in self_cost} | {fn for (_, (_, fn)) in calls}
    readable = demangle(sorted(f for f in functions if f))
    outgoing = collections.Counter()
    for (caller, _), cost in calls.items():
        outgoing[caller] += cost
    print("by part (inclusive; parts may overlap):")
    for label, pattern in PARTS:
        keys = [k for k in set(self_cost) | set(outgoing) if k[1] and re.search(pattern, readable.get(k[1], k[1]))]
        # Only the outermost matches: a matching function called by another matching one is counted once.
        inner = {callee for (caller, callee) in calls if caller in keys and callee in keys}
        cost = sum(self_cost[k] + outgoing[k] for k in keys if k not in inner)
        print(f"  {per(cost):7.1f} k  {100 * cost / total:4.1f}%  {label}")
    if top:
        print(f"top {top} functions by self cost:")
        for (ob, fn), cost in self_cost.most_common(top):
            print(f"  {per(cost):7.1f} k  {readable.get(fn, fn)[:150]}")


if __name__ == "__main__":
    main()
