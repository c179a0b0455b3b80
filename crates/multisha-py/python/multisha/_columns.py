"""The column functions ``multisha.arrow`` and ``multisha.polars`` both define: ``digests``,
``hmac``, ``sha1`` ... ``sha512_256`` and ``hmac_sha1`` ... ``hmac_sha512_256``, each a call of
the module's own ``apply(name, values, key, threads)``."""

from . import _multisha

NAMES = ("sha1", "sha224", "sha256", "sha384", "sha512", "sha512_224", "sha512_256")
# Digest sizes as the extension gives them.
SIZES = {name: _multisha.new(name).digest_size for name in NAMES}
EXPORTS = ["digests", "hmac", *NAMES, *(f"hmac_{name}" for name in NAMES)]


def functions(apply, takes, gives):
    """The functions by name, documented as taking ``takes`` and giving ``gives`` (which may
    name the digest size as ``{size}``)."""

    def digests(name, values, *, threads=None):
        """The digests of ``values`` as the function named ``name`` (as ``hashlib.new`` names it)."""
        return apply(name, values, None, threads)

    def hmac(name, key, values, *, threads=None):
        """The HMAC tags of ``values`` under ``key`` with the function named ``name``."""
        return apply(name, values, key, threads)

    made = {"digests": digests, "hmac": hmac}
    for name in NAMES:

        def plain(values, *, threads=None, _name=name):
            return apply(_name, values, None, threads)

        def keyed(key, values, *, threads=None, _name=name):
            return apply(_name, values, key, threads)

        result = gives.format(size=SIZES[name])
        plain.__doc__ = f"The {name} digests of ``values`` ({takes}), as {result}."
        keyed.__doc__ = f"The HMAC-{name} tags of ``values`` ({takes}) under ``key``, as {result}."
        for function, function_name in ((plain, name), (keyed, f"hmac_{name}")):
            function.__name__ = function.__qualname__ = function_name
            made[function_name] = function
    return made
