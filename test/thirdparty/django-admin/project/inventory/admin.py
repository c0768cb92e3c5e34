from django.contrib import admin

from .models import Item, StaffMember


@admin.register(Item)
class ItemAdmin(admin.ModelAdmin):
    list_display = ("sku", "name", "quantity", "location")
    list_filter = ("location",)
    search_fields = ("sku", "name")


@admin.register(StaffMember)
class StaffMemberAdmin(admin.ModelAdmin):
    list_display = ("name", "email", "department")
    list_filter = ("department",)
    search_fields = ("name", "email")
