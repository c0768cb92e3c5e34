#!/usr/bin/python3
"""The inventory-and-staff admin site's manage.py (a stock Django 3.2 project)."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inventory_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
