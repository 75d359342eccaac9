"""Constrained-random SIMT program generator for the G80 SM: generator, lock-step runner, shrinker."""

from .config import PRESETS, Config, load
from .generator import Prog, generate, render

__all__ = ["PRESETS", "Config", "Prog", "generate", "load", "render"]
