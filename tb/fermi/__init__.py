"""Fermi (sm_20) runs of `make sim ISA=fermi`: the golden model alone until a Fermi DUT exists."""
