"""Command line: ``python -m engine replay FILE|-``, ``verify FILE``, ``solve FILE|-``,
``bench``, ``bench-solve``, ``bench-analysis``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import RecordError


def _read_json(path: str) -> Any:
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except RecursionError:  # arrays or objects nested thousands deep
        raise RecordError("not valid JSON: nested too deeply") from None


def _replay(path: str) -> int:
    from engine.record import DealRecord, replay

    record = DealRecord.from_dict(_read_json(path))
    print(json.dumps(replay(record).to_dict(), indent=1))
    return 0


def _verify(path: str) -> int:
    from engine.shuffle import verify

    data = _read_json(path)
    if not isinstance(data, dict) or "salt" not in data or "commitment" not in data:
        raise RecordError("a record to verify needs its 'salt' and 'commitment'")
    from engine.record import DealRecord

    record = DealRecord.from_dict(data)
    if verify(record.deck, str(data["salt"]), str(data["commitment"])):
        print("ok: the deck matches the commitment published before the first bid")
        return 0
    print("MISMATCH: this deck is not the one committed to")
    return 1


def _solve(path: str) -> int:
    from engine.errors import IllegalAction
    from engine.record import DealRecord, rebuild
    from engine.solver.solve import solve_record

    record = DealRecord.from_dict(_read_json(path))
    try:
        if not rebuild(record).is_over:
            raise RecordError("the deal is not finished: only a finished deal is solved")
    except IllegalAction as exc:
        raise RecordError(f"not a legal deal: {exc}") from None
    for step in solve_record(record):
        print(json.dumps(step.to_dict(), separators=(", ", ": ")), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="replay a deal record (docs/deal-record.md)")
    replay.add_argument("file", help="the record's path, or - for standard input")
    verify = commands.add_parser("verify", help="check a finished deal's shuffle commitment")
    verify.add_argument("file", help="a deal record with 'salt' and 'commitment', or -")
    bench = commands.add_parser(
        "bench", help="random legal deals and playouts per second, per variant and for coinche"
    )
    bench.add_argument("--seconds", type=float, default=3.0, help="per variant (default 3)")
    solve = commands.add_parser(
        "solve", help="exact value of every legal card at each card played (all cards known)"
    )
    solve.add_argument("file", help="a finished deal's record, or - for standard input")
    bench_solve = commands.add_parser(
        "bench-solve", help="CPU seconds to solve every card decision of whole deals"
    )
    bench_solve.add_argument("--deals", type=int, default=5, help="per variant (default 5)")
    bench_solve.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    bench_analysis = commands.add_parser(
        "bench-analysis", help="CPU seconds to analyse whole deals as the site's analyst does"
    )
    bench_analysis.add_argument("--deals", type=int, default=3, help="per variant (default 3)")
    bench_analysis.add_argument("--seed", type=int, default=1, help="the deals' seed (default 1)")
    bench_analysis.add_argument(
        "--samples", type=int, default=None, help="samples per honest value (the analyst's)"
    )
    bench_analysis.add_argument(
        "--variant", choices=["belote", "open_blot"], default=None, help="only this variant"
    )
    args = parser.parse_args(argv)
    try:
        if args.command == "replay":
            return _replay(args.file)
        if args.command == "verify":
            return _verify(args.file)
        if args.command == "solve":
            return _solve(args.file)
        if args.command == "bench-solve":
            from engine.solvebench import main as solve_bench_main

            return solve_bench_main(args.deals, args.seed)
        if args.command == "bench-analysis":
            from engine.analysis import SAMPLES
            from engine.analysisbench import main as analysis_bench_main

            samples = SAMPLES if args.samples is None else args.samples
            return analysis_bench_main(args.deals, args.seed, samples, args.variant)
        from engine.bench import main as bench_main

        return bench_main(args.seconds)
    except RecordError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
