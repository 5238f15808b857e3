from django.urls import path

from tournaments.entries import apis as calendars

urlpatterns = [
    path(
        "clubs/<int:club_id>/calendar.ics",
        calendars.ClubCalendarApi.as_view(),
        name="api-club-calendar",
    ),
    path("calendar/<str:token>.ics", calendars.PlayerCalendarApi.as_view(), name="api-calendar"),
    path("me/calendar/", calendars.MyCalendarApi.as_view(), name="api-me-calendar"),
]
