from django.contrib import admin
from django.urls import path
from django.views.generic import RedirectView

admin.site.site_header = "Inventory and staff"
admin.site.site_title = "Inventory and staff"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", RedirectView.as_view(url="/admin/", permanent=False)),
]
