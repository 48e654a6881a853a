"""The web page of ``relnotes serve``: the chat in a browser (``/``) and a citation in its section
(``/show``), plain HTML, CSS and JavaScript files served by the server itself (``routes``).

The page holds no corpus text: its script asks the HTTP API (``qa.http``) with the token, reads
follow-ups through the API (the turn it sends back), and puts every text it gets into the page
as text, never as HTML.
"""
