"""NumPy reference for benchmarks/programs/galton_bean_machine.arr: bh107/benchpress's
galton_bean_machine (benchpress/benchmarks/galton_bean_machine/python_numpy/
galton_bean_machine.py) in Python 3; inputs from arrayc_random."""
import numpy as np

from arrayc_random import random


def galton_bean_machine(num_beans=1000, height=100, seed=1):
    return (np.sum(np.sign(random(num_beans, height, seed=seed) - 0.5), axis=1),)
