#!/usr/bin/env python
import sys


def main() -> None:
    from config.entry import settings_module_choose

    settings_module_choose()  # DJANGO_SETTINGS_MODULE, one for every entry point
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
