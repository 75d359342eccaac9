"""Fault-injection campaigns on the RTL: sites from the design (sites.py), many faults per simulation
(test_campaign.py), classification at the first divergence (classify.py), SQLite results (db.py),
HTML report (report.py), the runner (campaign.py, `make faults`)."""
