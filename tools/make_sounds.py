"""Synthesize the table's sounds into sgmahjong/server/static/sounds/*.wav (mono, 22.05 kHz, 16-bit).

    .venv/bin/python tools/make_sounds.py

Every sound is generated here from sine waves and noise (no recorded material, so no licence beyond
the project's own): a tile click for a draw, a firmer clack for a discard, a two-note call for a claim,
a rising chord for a win and a coin ring for a payment. Deterministic (seeded noise), so re-running it
gives the same files.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
OUT = Path(__file__).resolve().parent.parent / "sgmahjong" / "server" / "static" / "sounds"


def envelope(i: int, n: int, attack: float, decay: float) -> float:
    t = i / RATE
    a = min(1.0, t / attack) if attack > 0 else 1.0
    fade: float = (1 - i / n) ** 0.5  # i < n, so real (float ** float is typed Any)
    return a * math.exp(-t / decay) * fade


def tone(freqs: list[float], seconds: float, *, attack: float = 0.003, decay: float = 0.12,
         noise: float = 0.0, seed: int = 1, start: float = 0.0) -> list[float]:
    rng = random.Random(seed)
    n = int(seconds * RATE)
    out = [0.0] * int(start * RATE)
    for i in range(n):
        t = i / RATE
        s = sum(math.sin(2 * math.pi * f * t) for f in freqs) / max(1, len(freqs))
        s = (1 - noise) * s + noise * rng.uniform(-1, 1)
        out.append(s * envelope(i, n, attack, decay))
    return out


def mix(*parts: list[float]) -> list[float]:
    n = max(len(p) for p in parts)
    return [sum(p[i] for p in parts if i < len(p)) for i in range(n)]


def write(name: str, samples: list[float], volume: float = 0.6) -> None:
    peak = max(1e-9, max(abs(s) for s in samples))
    data = b"".join(struct.pack("<h", int(32767 * volume * s / peak)) for s in samples)
    with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    write("draw", tone([1800, 2600], 0.06, decay=0.012, noise=0.6, seed=1), volume=0.35)
    write("discard", mix(tone([900, 1400], 0.12, decay=0.025, noise=0.55, seed=2),
                         tone([320], 0.12, decay=0.03)), volume=0.6)
    write("claim", mix(tone([660, 990], 0.16, decay=0.08), tone([880, 1320], 0.2, decay=0.1, start=0.1)),
          volume=0.5)
    write("win", mix(tone([523.25], 0.5, decay=0.3), tone([659.25], 0.5, decay=0.3, start=0.09),
                     tone([783.99], 0.5, decay=0.3, start=0.18), tone([1046.5], 0.6, decay=0.35, start=0.27)),
          volume=0.5)
    write("pay", mix(tone([2093, 3136], 0.25, decay=0.08), tone([2637, 3951], 0.3, decay=0.1, start=0.07)),
          volume=0.35)
    for f in sorted(OUT.glob("*.wav")):
        print(f.name, f.stat().st_size)


if __name__ == "__main__":
    main()
