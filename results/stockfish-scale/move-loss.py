#!/usr/bin/env python3
"""Each move's loss in ruler games, judged by Stockfish at a fixed depth
(so the figures do not depend on the machine's load). Usage, from
results/stockfish-scale/:
  MIN_LEVEL=2000 python3 move-loss.py DEPTH OUT.csv.gz NAME-games.csv.gz...
(MIN_LEVEL: only the games against levels from this UCI_Elo up).

For every position of every game (after the opening), Stockfish's score at
DEPTH from the side to move; a move's loss is the mover's score before it
minus the negated score after it, clipped to [0, 1000]; mate scores count
as +-10000 before clipping. Writes one row per move: file, game, ply
(from the first move after the opening), mover (boardlab or stockfish),
level (the game's UCI_Elo), phase (knights, bishops, rooks and queens on
the board), score before the move (the mover's view) and loss. One
Stockfish process (1 thread, 64 MB hash) analyses the files in order, so
a run is reproducible.
"""
import csv
import gzip
import subprocess
import sys


class Engine:
    def __init__(self, path="/usr/games/stockfish"):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait("readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")

    def wait(self, token):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("stockfish ended")
            if line.startswith(token):
                return line

    def score(self, fen, moves, depth):
        self.send(f"position fen {fen} moves {' '.join(moves)}" if moves else f"position fen {fen}")
        self.send(f"go depth {depth}")
        last = None
        while True:
            line = self.p.stdout.readline()
            if line.startswith("info") and " score " in line and "upperbound" not in line and "lowerbound" not in line:
                last = line
            if line.startswith("bestmove"):
                break
        if last is None:  # no legal move: mate or stalemate
            return None
        t = last.split()
        i = t.index("score")
        kind, v = t[i + 1], int(t[i + 2])
        if kind == "mate":
            return 10000 if v > 0 else -10000
        return v


def phase(fen):
    board = fen.split()[0]
    return sum(1 for c in board if c in "nbrqNBRQ")


def main():
    global MIN_LEVEL
    depth = int(sys.argv[1])
    MIN_LEVEL = int(__import__("os").environ.get("MIN_LEVEL", "0"))
    path = sys.argv[2]
    out = gzip.open(path, "wt", newline="") if path.endswith(".gz") else open(path, "w", newline="")
    w = csv.writer(out)
    w.writerow(["file", "game", "ply", "mover", "level", "phase", "before", "loss"])
    eng = Engine()
    for games_path in sys.argv[3:]:
        for row in csv.DictReader(gzip.open(games_path, "rt")):
            specs = {row["agent_0"]: row["spec_0"], row["agent_1"]: row["spec_1"]}
            sf_seat = 0 if "stockfish" in row["spec_0"] else 1
            level = [x for x in row[f"spec_{sf_seat}"].split(",") if x.startswith("option.uci_elo=")][0].split("=")[1].rstrip(")")
            if int(level) < MIN_LEVEL:
                continue
            white_seat = 0 if row["colour_0"] == "white" else 1
            fen = row["start"]
            moves = row["moves"].split()
            # Positions after 0..n moves; the mover of move k is white when
            # k is even and the start has white to move.
            white_to_move = fen.split()[1] == "w"
            scores = []
            for k in range(len(moves) + 1):
                scores.append(eng.score(fen, moves[:k], depth))
            # The phase (pieces other than pawns and Kings) from the
            # position's FEN, which Stockfish's `d` prints.
            for k, mv in enumerate(moves):
                before, after = scores[k], scores[k + 1]
                if before is None:
                    break
                if after is None:  # the move mated or stalemated
                    after_mover = 10000 if "checkmate" in row["end"] and k == len(moves) - 1 else 0
                else:
                    after_mover = -after
                loss = max(0, min(1000, max(-10000, min(10000, before)) - after_mover))
                mover_white = white_to_move == (k % 2 == 0)
                mover_seat = white_seat if mover_white else 1 - white_seat
                who = "stockfish" if mover_seat == sf_seat else "boardlab"
                eng.send(f"position fen {fen} moves {' '.join(moves[:k])}" if k else f"position fen {fen}")
                eng.send("d")
                fenline = eng.wait("Fen:")
                w.writerow([games_path.split("/")[-1], row["game_index"], k, who, level, phase(fenline.split(":", 1)[1].strip()), before, loss])
            out.flush()
    out.close()


main()
