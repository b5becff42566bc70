"""`extract.reader`, as CONTRACT.md documents it: the light reader of a build, kept in
`extract.contract.reader` (this name is that very module, not a copy)."""

import sys

from extract.contract import reader

sys.modules[__name__] = reader
