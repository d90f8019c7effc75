"""Adapters exposing Monsoon games through other libraries' interfaces."""
