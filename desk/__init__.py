"""The round desk under ``/manage/``: the organizers' dashboard of the running round, closing
rounds, seating the final, ruling on disputed results."""
