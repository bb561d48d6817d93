"""``python -m agent_service [serve|chat|seed-demo|run|issue-token|admin]``."""

from __future__ import annotations

import argparse
import asyncio
import sys

from agenda_kit import event_loop
from agent_service.cli import admin, chat, devrun, seed, tokens


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent_service")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("serve", help="serve the agent service (default)")
    chat.add_arguments(commands.add_parser("chat", help="terminal chat over gRPC"))
    seed.add_arguments(commands.add_parser("seed-demo", help="create the demo salon tenant"))
    devrun.add_arguments(commands.add_parser("run", help="start everything locally and chat"))
    tokens.add_arguments(
        commands.add_parser("issue-token", help="add a principal; print its new token")
    )
    admin.add_arguments(commands.add_parser("admin", help="production set-up (bootstrap)"))
    args = parser.parse_args(argv)
    if args.command == "chat":
        try:
            return asyncio.run(chat.main(args))
        except KeyboardInterrupt:
            return 130
    if args.command == "seed-demo":
        return asyncio.run(seed.main(args))
    if args.command == "run":
        return devrun.main(args)
    if args.command == "issue-token":
        return tokens.main(args)
    if args.command == "admin":
        return asyncio.run(admin.main(args))
    from agent_service.cli import serve  # the server's stack, imported only to serve (~4 s of CPU)

    return event_loop.run(serve.main())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
