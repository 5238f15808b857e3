from django.core.wsgi import get_wsgi_application

from config.entry import settings_module_choose

settings_module_choose()  # DJANGO_SETTINGS_MODULE, one for every entry point
application = get_wsgi_application()
