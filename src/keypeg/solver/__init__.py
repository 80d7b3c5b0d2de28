"""The exact optimal strategy: branch and bound with bounds, budgets, memo and symmetry."""

from .search import OBJECTIVES, OptimalResult, solve_optimal

__all__ = ["OBJECTIVES", "OptimalResult", "solve_optimal"]
