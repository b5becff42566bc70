"""The site's home-screen icons (site/assets/images/icon-192.png, icon-512.png), drawn here once
and committed: an open book, white on the theme's indigo. Run again only to change the drawing:
`python -m tools.make_icons`. Standard library only (a PNG is zlib-compressed rows)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

INDIGO = (0x40, 0x51, 0xB5)  # Material's default primary colour, the header's
WHITE = (0xFF, 0xFF, 0xFF)
FOLDER = Path(__file__).resolve().parent.parent / "site" / "assets" / "images"


def colour_at(x: float, y: float) -> tuple[int, int, int]:
    """The drawing on a unit square: two pages of a book opened flat, a spine between them, within
    the central 60 % (the safe zone of a maskable icon)."""
    if 0.22 <= y <= 0.74:
        left = 0.20 <= x <= 0.485 and y >= 0.22 + (0.485 - x) * 0.12
        right = 0.515 <= x <= 0.80 and y >= 0.22 + (x - 0.515) * 0.12
        if left or right:
            line = (0.30 <= y <= 0.66) and int((y - 0.30) / 0.06) % 2 == 0 and (y - 0.30) % 0.06 < 0.02
            inside = 0.25 <= x <= 0.45 or 0.55 <= x <= 0.75
            return INDIGO if line and inside else WHITE
    return INDIGO


def png(size: int) -> bytes:
    rows = b"".join(b"\x00" + bytes(c for x in range(size) for c in colour_at((x + 0.5) / size, (y + 0.5) / size))
                    for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def main() -> None:
    for size in (192, 512):
        (FOLDER / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
