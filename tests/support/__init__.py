"""Helpers the test suite shares: what a test needs (an extra, a service, a browser) and how it
reports a missing one."""
