"""Benchmark leaderboard: a Pelican generator plugin for archived BenchmarkReport JSON."""

from .generator import register

__all__ = ["register"]
