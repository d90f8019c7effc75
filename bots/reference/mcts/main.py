"""Reference bot ``mcts``: generic information-set MCTS over the official engine (bots.mcts)."""

from bots.mcts import MctsBot
from bots.sdk import run

if __name__ == "__main__":
    run(MctsBot)
