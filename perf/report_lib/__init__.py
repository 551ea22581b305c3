"""Helpers of perf/report: reading halogen_perf runs, the figures derived from them, goals, tables, plots."""
