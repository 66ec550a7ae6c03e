"""Plots of a `bioauth-dev bench --json` run (scripts/bench draws them beside the run's figures).

throughput.png  biometric sign-ins per second against connections, per database, with the floor
                and the limit measured in the same run.
latency.png     p50, p99 and p99.9 of the same sweep, per database, with the half-load point
                and its p99 target (10 ms on SQLite, 20 ms on PostgreSQL, as the summary's).
growth.png      half-load latency with each seeded size, per database.
"""
import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {"sqlite": "tab:blue", "postgres": "tab:orange"}
HALF_LOAD_P99_TARGET_MS = {"sqlite": 10, "postgres": 20}


def floor(db, connections):
    """The higher of the floor's measurements at `connections`, as the summary computes it."""
    values = []
    for probe in db["floors"]:
        points = [p for p in probe["points"] if p["connections"] <= connections] or probe["points"][:1]
        if points:
            values.append(max(points, key=lambda p: p["connections"])["signInsPerSecond"])
    return max(values, default=0)


def subtitle(report):
    machine = report["machine"]
    return f'{machine["cpu"]}, {machine["cores"]} cores; {report["build"]} build, {report["date"][:10]}'


def throughput(report, out):
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for db in report["databases"]:
        colour = COLOURS.get(db["database"])
        sweep = db["biometricSweep"]
        ax.plot([r["connections"] for r in sweep], [r["throughput"] for r in sweep], "o-", color=colour,
                label=f'{db["database"]}: measured')
        ax.axhline(db["limit"], color=colour, linestyle="--", linewidth=1,
                   label=f'{db["database"]}: limit ({db["limitedBy"]}) {db["limit"]:.0f}/s')
        connections = [r["connections"] for r in sweep]
        ax.plot(connections, [floor(db, c) for c in connections], ":", color=colour, linewidth=1.5,
                label=f'{db["database"]}: floor (the sign-in\'s statements alone)')
    ax.set_xscale("log", base=2)
    ax.set_xlabel("concurrent connections (closed loop)")
    ax.set_ylabel("biometric sign-ins per second")
    ax.set_ylim(bottom=0)
    ax.set_title("Biometric sign-in throughput\n" + subtitle(report), fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "throughput.png", dpi=110)


def latency(report, out):
    databases = report["databases"]
    fig, axes = plt.subplots(1, len(databases), figsize=(6 * len(databases), 4.6), squeeze=False)
    for ax, db in zip(axes[0], databases):
        sweep = db["biometricSweep"]
        connections = [r["connections"] for r in sweep]
        for key, label, style in (("p50", "p50", "o-"), ("p99", "p99", "s-"), ("p999", "p99.9", "^-")):
            ax.plot(connections, [r["latency"][key] for r in sweep], style, label=label)
        half = db["halfLoad"]
        target = HALF_LOAD_P99_TARGET_MS.get(db["database"])
        if target:
            ax.axhline(target, color="grey", linestyle=":", linewidth=1, label=f"{target} ms target (p99 at half load)")
        ax.text(connections[0], half["latency"]["p99"],
                f' half load ({half["offeredRate"]:.0f}/s): p50 {half["latency"]["p50"]:.2f}, p99 {half["latency"]["p99"]:.2f} ms',
                fontsize=8, va="bottom")
        ax.scatter([connections[0]], [half["latency"]["p99"]], color="black", zorder=3)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("concurrent connections (closed loop)")
        ax.set_ylabel("sign-in latency, ms (challenge + completion)")
        ax.set_title(db["database"])
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Biometric sign-in latency\n" + subtitle(report), fontsize=10)
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=110)


def growth(report, out):
    databases = report["databases"]
    fig, ax = plt.subplots(figsize=(8, 4.4))
    width = 0.8 / max(1, sum(len(db["growth"]) for db in databases))
    bar = 0
    for db in databases:
        for point in db["growth"]:
            positions = [i + bar * width for i in range(3)]
            values = [point["halfLoad"]["latency"][k] for k in ("p50", "p99", "p999")]
            ax.bar(positions, values, width, label=f'{db["database"]}, {point["accounts"]:,} accounts')
            bar += 1
    ax.set_xticks([i + (bar - 1) * width / 2 for i in range(3)], ["p50", "p99", "p99.9"])
    ax.set_ylabel("ms at the same offered rate")
    ax.set_title("Latency against seeded accounts\n" + subtitle(report), fontsize=10)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "growth.png", dpi=110)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_bench.py RESULTS.json OUTPUT_DIRECTORY")
    report = json.loads(Path(sys.argv[1]).read_text())
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    throughput(report, out)
    latency(report, out)
    growth(report, out)


if __name__ == "__main__":
    main()
