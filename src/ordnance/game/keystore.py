"""The key store: the secrets of the process that runs the game service, kept apart from any
game database (SYS.dice, SYS.record).

Players who can read a game database (a SQLite file, or the same PostgreSQL credentials) must
not find in it anything that tells them a roll ahead, or lets them write as the service. So the
service keeps its secrets in a folder of its own user, created on first use:

=====================  ===========================================================================
``signing.key``        the service's Ed25519 private key (hex), made on first use; the keys of
                       the token MACs and of the entry MACs are derived from it
``seeds/<SHA-256>``    one secret seed (hex) per file, named by its SHA-256: the commitment the
                       log publishes. Content-addressed, so games of several databases (or a game
                       and its imported copy) never collide, and a seed is found from the log alone
``heads/<game>``       the newest entry (seq, hash) of each game this key store's service wrote
                       or read: a log stored shorter than it, or forked from it, is refused
                       (:mod:`.heads`). Not secret, but kept where the game database's writers
                       cannot reach it
=====================  ===========================================================================

The folder is mode 0700 and every file 0600; a store whose folder or key file others can read is
refused (as ``ssh`` refuses a readable private key). Files are written to a temporary name, synced
and renamed, so a crash leaves either the whole secret or none. The location is ``$ORDNANCE_KEYS``,
else ``keys`` in the user's data folder (``~/.local/share/ordnance/keys`` on Linux).

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> store = KeyStore(pathlib.Path(folder.name) / "keys")
>>> name = store.put_seed(bytes(32))
>>> store.seed(name) == bytes(32), oct(store.path.stat().st_mode & 0o777)
(True, '0o700')
>>> store.forget_seed(name); store.seed(name) is None
True
>>> folder.cleanup()
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
from pathlib import Path

import platformdirs

from ordnance.core.errors import OrdnanceError
from ordnance.game.heads import Head, Heads

KEY_FILE = "signing.key"
SEEDS = "seeds"
HEADS = "heads"
_PRIVATE_KEY_BYTES = 32
_HEX = frozenset("0123456789abcdef")


class KeyStoreError(OrdnanceError):
    """The key store cannot be used; says where and why (never what a secret is)."""

    def __init__(self, path: Path, problem: str) -> None:
        super().__init__(str(path), problem)
        self.path, self.problem = path, problem

    def __str__(self) -> str:
        return f"key store {self.path}: {self.problem}"


def default_keys() -> Path:
    """``$ORDNANCE_KEYS``, else ``keys`` in the user's data folder."""
    given = os.environ.get("ORDNANCE_KEYS")
    if given:
        return Path(given).expanduser()
    return Path(platformdirs.user_data_dir("ordnance", appauthor=False)) / "keys"


class KeyStore:
    """The secrets of one service process (see the module docstring)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_keys()
        self._key: bytes | None = None
        self._token_key: bytes | None = None
        self._entry_key: bytes | None = None
        self._heads: Heads | None = None

    # --- the folder --------------------------------------------------------------------------

    def _folder(self, *, create: bool) -> Path:
        try:
            if create:
                self.path.mkdir(mode=0o700, parents=True, exist_ok=True)
                (self.path / SEEDS).mkdir(mode=0o700, exist_ok=True)
            if self.path.exists():
                self._check_private(self.path)
        except OSError as error:
            raise KeyStoreError(self.path, f"cannot be used ({error.strerror})") from None
        return self.path

    def _check_private(self, path: Path) -> None:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            wanted = "700" if path.is_dir() else "600"
            raise KeyStoreError(
                path,
                f"is open to other users (mode {mode:04o}); run 'chmod {wanted} {path}'",
            )

    def _write(self, target: Path, text: str) -> None:
        """Write ``text`` to ``target`` atomically, mode 0600, synced to disk."""
        descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
        try:
            with os.fdopen(descriptor, "w", encoding="ascii") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temporary, 0o600)
            os.replace(temporary, target)
            directory = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(directory)
            finally:
                os.close(directory)
        except OSError as error:
            Path(temporary).unlink(missing_ok=True)
            raise KeyStoreError(self.path, f"cannot write ({error.strerror})") from None

    def _read_hex(self, path: Path) -> bytes | None:
        try:
            self._check_private(path)
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as error:
            raise KeyStoreError(path, f"cannot be read ({error})") from None
        if not text or set(text) - _HEX or len(text) % 2:
            raise KeyStoreError(path, "is not a hex secret (damaged?)")
        return bytes.fromhex(text)

    # --- the signing key ---------------------------------------------------------------------

    def private_key(self) -> bytes:
        """The service's Ed25519 private key (32 bytes), made on first use."""
        if self._key is None:
            path = self._folder(create=True) / KEY_FILE
            found = self._read_hex(path)
            if found is None:
                fresh = os.urandom(_PRIVATE_KEY_BYTES)
                # Two processes making the key at once: link() lets only one name win.
                self._write_once(path, fresh.hex())
                found = self._read_hex(path)
            if found is None or len(found) != _PRIVATE_KEY_BYTES:
                raise KeyStoreError(path, "does not hold a 32-byte key")
            self._key = found
        return self._key

    def _write_once(self, target: Path, text: str) -> None:
        staging = target.with_name(f".new-{os.getpid()}-{target.name}")
        self._write(staging, text)
        try:
            os.link(staging, target)
        except FileExistsError:
            pass
        except OSError as error:
            raise KeyStoreError(self.path, f"cannot write ({error.strerror})") from None
        finally:
            staging.unlink(missing_ok=True)

    def token_key(self) -> bytes:
        """The key of the token MACs, derived from the signing key (one secret to keep)."""
        if self._token_key is None:  # derived once, like the private key is read once
            key = self.private_key()
            self._token_key = hmac.new(key, b"ordnance-token-mac-v1", hashlib.sha256).digest()
        return self._token_key

    def entry_key(self) -> bytes:
        """The key of the entries' MACs (:func:`ordnance.game.entries.entry_mac`), derived
        from the signing key like the token key, and apart from it."""
        if self._entry_key is None:
            key = self.private_key()
            self._entry_key = hmac.new(key, b"ordnance-entry-mac-v1", hashlib.sha256).digest()
        return self._entry_key

    # --- seeds -------------------------------------------------------------------------------

    def put_seed(self, seed: bytes) -> str:
        """Keep ``seed``; returns its name, its SHA-256 (the commitment the log publishes)."""
        name = hashlib.sha256(seed).hexdigest()
        folder = self._folder(create=True) / SEEDS
        if not (folder / name).exists():
            self._write(folder / name, seed.hex())
        return name

    def seed(self, name: str) -> bytes | None:
        """The seed whose SHA-256 is ``name`` (None when this store does not hold it)."""
        if len(name) != 64 or set(name) - _HEX:
            return None
        self._folder(create=False)
        found = self._read_hex(self.path / SEEDS / name)
        if found is not None and hashlib.sha256(found).hexdigest() != name:
            raise KeyStoreError(self.path / SEEDS / name, "does not match its name (damaged?)")
        return found

    def forget_seed(self, name: str) -> None:
        """Drop a seed once the log has revealed it (it is no secret any more)."""
        if len(name) == 64 and not set(name) - _HEX:
            (self.path / SEEDS / name).unlink(missing_ok=True)

    # --- kept heads --------------------------------------------------------------------------

    def head(self, game: str) -> Head | None:
        """The newest entry of ``game`` this key store's service wrote or read (None: none)."""
        if self._heads is None:
            self._heads = Heads(self.path / HEADS)
        try:
            return self._heads.get(game)
        except OSError as error:
            raise KeyStoreError(self.path, f"cannot read its heads ({error.strerror})") from None

    def head_changed(self, game: str) -> float | None:
        """When this key store's service last kept a newer head of ``game`` (its last
        change seen here, seconds since the epoch; None: never)."""
        if self._heads is None:
            self._heads = Heads(self.path / HEADS)
        try:
            return self._heads.changed(game)
        except OSError as error:
            raise KeyStoreError(self.path, f"cannot read its heads ({error.strerror})") from None

    def keep_head(self, game: str, seq: int, entry_hash: str) -> None:
        """Keep entry ``seq`` (``entry_hash``) as ``game``'s head; never moves a head back."""
        if self._heads is None:
            self._heads = Heads(self.path / HEADS)
        try:
            if not self._heads.made:
                self._folder(create=True)  # the key store's own folder, private
            self._heads.keep(game, seq, entry_hash)
        except OSError as error:
            raise KeyStoreError(self.path, f"cannot keep a head ({error.strerror})") from None

    def close(self) -> None:
        """Close the head files kept open."""
        if self._heads is not None:
            self._heads.close()
