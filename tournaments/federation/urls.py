from django.urls import path

from tournaments.federation import apis

F = "federations/<int:federation_id>/"

urlpatterns = [
    path(F + "members/", apis.MembersApi.as_view(), name="api-federation-members"),
    path(
        F + "members/import/",
        apis.MembersImportApi.as_view(),
        name="api-federation-members-import",
    ),
    path(F + "ratings/", apis.RatingsApi.as_view(), name="api-federation-ratings"),
    path(
        F + "reports/<str:month>.csv",
        apis.ReportCsvApi.as_view(),
        name="api-federation-report-csv",
    ),
    path(
        F + "reports/<str:month>.hgxr",
        apis.ReportHgxApi.as_view(),
        name="api-federation-report-hgx",
    ),
]
