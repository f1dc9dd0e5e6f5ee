"""Maps the top-level envs/ and tasks/ folders into the package as mobilegym.envs and mobilegym.tasks."""
from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).parent


def mapped_packages(folder: str) -> list[str]:
    """Every package under a top-level folder, named as a subpackage of mobilegym."""
    return [f"mobilegym.{folder}"] + [f"mobilegym.{folder}.{p}" for p in find_packages(str(ROOT / folder))]


setup(
    packages=find_packages(include=["mobilegym", "mobilegym.*"]) + mapped_packages("envs") + mapped_packages("tasks"),
    package_dir={"mobilegym": "mobilegym", "mobilegym.envs": "envs", "mobilegym.tasks": "tasks"},
)
