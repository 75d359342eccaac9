"""Mutation score of the verification environment (`make mutants`): RTL mutants generated from the
sources of rtl/ (mutate.py: sites from Verilator's parse tree, all mutants instrumented into one
build, each behind a runtime-selected id), many mutants and programs per simulator process
(test_mutation.py), the campaign and its report (campaign.py)."""
