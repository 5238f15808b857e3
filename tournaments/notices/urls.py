from django.urls import path

from tournaments.notices import apis

urlpatterns = [
    path("me/notices/", apis.MyNoticesApi.as_view(), name="api-me-notices"),
    path("me/notices/settings/", apis.MyNoticeSettingsApi.as_view(), name="api-me-notice-settings"),
]
