# Copyright 2026 The annrt Authors
# SPDX-License-Identifier: Apache-2.0
"""Runs the PyTorch NNAPI tests with pytest; exits 77 (ctest's skip code)
only when PyTorch or its NNAPI backend cannot be imported."""
import os
import sys

SKIP = 77


def main():
    try:
        import torch
        import torch.backends._nnapi.prepare  # noqa: F401
        torch.classes._nnapi.Compilation  # the runtime half, in libtorch
    except Exception as error:  # ImportError, or a torch built without NNAPI
        print(f"SKIP: PyTorch's NNAPI backend cannot be imported: {error!r}")
        return SKIP
    import pytest
    here = os.path.dirname(os.path.abspath(__file__))
    return pytest.main([here, "-p", "no:cacheprovider", "-q", "-rfE", *sys.argv[1:]])


if __name__ == "__main__":
    sys.exit(main())
