"""The loader's view of a program for FlexGripPlus (golden/flexgrip_export.py), for tb/ modules."""

from golden.flexgrip_export import FlexgripImage, NotRunnable, flexgrip_image

__all__ = ["FlexgripImage", "NotRunnable", "flexgrip_image"]
