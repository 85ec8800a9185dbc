"""The protocol server: sessions, commands, search workers and transports."""
