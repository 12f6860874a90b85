"""The proposal write gate: agents' proposals from the inbox, checked in order, then applied.

parse (a proposal file into fields and its digest) -> gate (the ordered checks; nothing here
writes) -> plan (the page text a passing proposal becomes) -> apply (the single writer: inbox,
applied/ and rejected/, pages, hubs, index, log).
"""
