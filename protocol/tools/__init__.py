"""The controller-side tools: the match runner, the console, render, bench and demo."""
